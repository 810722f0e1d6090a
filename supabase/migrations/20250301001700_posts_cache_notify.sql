-- social-gateway schema, part 18: cache notifications (001200) for posts, likes, comments and
-- stories (issue 19).
--
-- The gateway caches answers built from the new tables too, so a write to any of them must reach
-- every replica, whoever made it, like a write to profiles or follows. social_private.cache_tags
-- gains the new tables (the branches of 001200 are unchanged) and each table gets the same AFTER
-- row trigger. New tags in CacheTags' vocabulary:
-- - posts, any write: Post:<id>, posts:<author_id> (the author's post list), Profile:<author_id>
--   (its post_count and post lists); both authors if an update moved the post (nothing does).
--   The counter triggers' updates (like_count, comment_count) are posts writes too, so a like
--   or a comment also sends these three.
-- - post_likes, any write: Post:<post_id>.
-- - comments, any write: Post:<post_id>, comments:<post_id>.
-- - stories, any write (the purge's deletes included): stories:<author_id>.
-- - profiles: post_count is a counter like follower_count (the posts trigger updates it): a
--   post_count-only update sends Profile:<id> alone, never `search`.
-- An expiring story sends nothing when it expires (no write happens): a cached list of stories
-- must not outlive its earliest expires_at, which is the gateway's to bound.

create or replace function social_private.cache_tags(table_name text, old_row jsonb, new_row jsonb)
returns text[]
language plpgsql immutable set search_path = '' as $$
declare
  -- what search neither matches nor orders by (its results carry Profile: tags for the rest)
  counters constant text[] := array['follower_count', 'following_count', 'send_count', 'post_count', 'updated_at'];
  tags text[] := '{}';
  r jsonb;
begin
  if old_row is null and new_row is null then
    raise exception 'social_private.cache_tags: no row of %', table_name;
  end if;
  case table_name
  when 'follows' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || array[
        'Profile:' || (r ->> 'follower_id')::uuid, 'Profile:' || (r ->> 'followee_id')::uuid,
        'followers:' || (r ->> 'followee_id')::uuid, 'following:' || (r ->> 'follower_id')::uuid];
    end loop;
  when 'profiles' then
    if old_row is null or new_row is null or old_row ->> 'id' is distinct from new_row ->> 'id' then
      -- a profile appears or goes (an id change is both)
      foreach r in array array_remove(array[old_row, new_row], null) loop
        tags := tags || array['Profile:' || (r ->> 'id')::uuid, 'search', 'follow-lists'];
      end loop;
    else
      tags := array['Profile:' || (new_row ->> 'id')::uuid];
      if (old_row - counters) is distinct from (new_row - counters) then
        tags := tags || 'search'::text;
      end if;
      if old_row -> 'is_public' is distinct from new_row -> 'is_public' then
        tags := tags || 'follow-lists'::text;
      end if;
    end if;
  when 'profile_private' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || ('Profile:' || (r ->> 'id')::uuid);
    end loop;
  when 'posts' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || array[
        'Post:' || (r ->> 'id')::uuid, 'posts:' || (r ->> 'author_id')::uuid,
        'Profile:' || (r ->> 'author_id')::uuid];
    end loop;
  when 'post_likes' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || ('Post:' || (r ->> 'post_id')::uuid);
    end loop;
  when 'comments' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || array['Post:' || (r ->> 'post_id')::uuid, 'comments:' || (r ->> 'post_id')::uuid];
    end loop;
  when 'stories' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || ('stories:' || (r ->> 'author_id')::uuid);
    end loop;
  else
    raise exception 'social_private.cache_tags: no cache tags for table %', table_name;
  end case;
  if array_position(tags, null) is not null then
    raise exception 'social_private.cache_tags: a % row without its ids', table_name;
  end if;
  return array(select distinct t collate "C" from unnest(tags) as t order by 1);
end $$;
revoke execute on function social_private.cache_tags(text, jsonb, jsonb) from public;

create trigger posts_cache_notify after insert or update or delete on public.posts
  for each row execute function social_private.cache_notify();
create trigger post_likes_cache_notify after insert or update or delete on public.post_likes
  for each row execute function social_private.cache_notify();
create trigger comments_cache_notify after insert or update or delete on public.comments
  for each row execute function social_private.cache_notify();
create trigger stories_cache_notify after insert or update or delete on public.stories
  for each row execute function social_private.cache_notify();
