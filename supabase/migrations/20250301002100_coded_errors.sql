-- social-gateway schema, part 22: the functions report conditions, the domain words them
-- (issue 38, section 2).
--
-- The functions of 000400, 000500, 001600 and 002000 raised their errors with English messages
-- ("You must be logged in to see your feed") beside the hint the stores map. The texts were
-- copies of the domain's, and had drifted from it ("see your feed" where the gateway says "view
-- your feed"). A client never sees them: the stores map the hint (and detail) to the domain's
-- error, and SocialDomain alone words it. So each error is now only its condition:
--
--   message = hint = the condition's code        errcode as before (PT401, PT400, PT404, PT429, 22023)
--   detail  = the condition's argument, if any:
--     authentication_required   `action=<code>`   what the caller tried (SocialDomain's
--                                                 SignedInAction raw values: follow_users,
--                                                 view_feed, like_posts, view_stories, post_stories)
--     too_many_stories          `retry_after=<seconds>` (unchanged)
--     invalid_story_media       `media_path` or `media_url`: the argument at fault
--
-- The bodies are those of the migrations they replace, but for the raise statements; the
-- signatures are the same, so grants and callers stay as they are. Applied migrations are left
-- as they were applied.

-- ============ follows (000400, 000500) ============
create or replace function public.follow_check(target uuid) returns uuid
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=follow_users';
  end if;
  if me = target then
    raise exception 'cannot_follow_self' using errcode = 'PT400', hint = 'cannot_follow_self';
  end if;
  -- the target must be visible to the caller (a private profile is "not found" to strangers)
  if not exists (select 1 from public.profiles where id = target and (is_public or id = me))
     or not exists (select 1 from public.profiles where id = me) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  perform social_private.lock_follow_pair(me, target);
  return me;
end $$;

create or replace function social_private.follow_caller(target uuid) returns uuid
language plpgsql stable security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=follow_users';
  end if;
  if me = target then
    raise exception 'cannot_follow_self' using errcode = 'PT400', hint = 'cannot_follow_self';
  end if;
  return me;
end $$;

-- ============ feed, likes, stories (001600) ============
create or replace function public.feed_page(after_us bigint default null, after_id uuid default null,
                                            page_size int default 21)
returns table (post jsonb, viewer_has_liked boolean)
language plpgsql stable security invoker set search_path = '' set jit = off as $$
begin
  if auth.uid() is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_feed';
  end if;
  return query select f.post, f.viewer_has_liked from social_private.feed_rows(after_us, after_id, page_size) f;
end $$;

create or replace function public.toggle_like(target uuid) returns jsonb
language plpgsql volatile security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
  removed int;
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=like_posts';
  end if;
  if not exists (select 1 from public.posts p where p.id = target) then  -- hidden or missing
    raise exception 'post_not_found' using errcode = 'PT404', hint = 'post_not_found';
  end if;
  perform social_private.lock_like_pair(target, me);
  delete from public.post_likes l where l.post_id = target and l.profile_id = me;
  get diagnostics removed = row_count;
  if removed = 0 then
    insert into public.post_likes (post_id, profile_id) values (target, me);
  end if;
  return jsonb_build_object(
    'liked', removed = 0,
    'like_count', (select p.like_count from public.posts p where p.id = target));
end $$;

create or replace function public.active_stories() returns setof public.stories
language plpgsql stable security invoker set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_stories';
  end if;
  return query
    select s.*
    from (select (select auth.uid()) as author_id
          union all
          select f.followee_id from public.follows f
          where f.follower_id = (select auth.uid()) and f.deleted_at is null) as a
    join public.stories s on s.author_id = a.author_id and s.expires_at > now()
    order by s.author_id, s.created_at, s.id;
end $$;

-- ============ create_story (002000) ============
create or replace function public.create_story(media_path text, media_type text, media_url text)
returns setof public.stories
language plpgsql volatile security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
  active int;
  oldest timestamptz;
  wait int;
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=post_stories';
  end if;
  -- the file must be in the caller's folder, named as the gateway names it, with its media type
  if create_story.media_path is null
     or create_story.media_path !~ ('^' || me::text || '/[0-9]{1,19}_[0-9a-f]{8}\.(jpg|png|mp4|mov)$')
     or create_story.media_type is distinct from
          (case when create_story.media_path ~ '\.(jpg|png)$' then 'image' else 'video' end) then
    raise exception 'invalid_story_media' using errcode = '22023', hint = 'invalid_story_media', detail = 'media_path';
  end if;
  -- the URL must be the public URL of that very file
  if not social_private.own_media_url(create_story.media_url, 'stories', me)
     or right(create_story.media_url, char_length(create_story.media_path) + 1) <> '/' || create_story.media_path then
    raise exception 'invalid_story_media' using errcode = '22023', hint = 'invalid_story_media', detail = 'media_url';
  end if;
  if not exists (select 1 from storage.objects o where o.bucket_id = 'stories' and o.name = create_story.media_path) then
    raise exception 'story_media_not_found' using errcode = 'PT404', hint = 'story_media_not_found';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('stories:' || me::text, 0));
  select count(*)::int, min(s.expires_at) into active, oldest
  from public.stories s where s.author_id = me and s.expires_at > pg_catalog.clock_timestamp();
  if active >= social_private.max_active_stories() then
    wait := greatest(1, ceil(extract(epoch from oldest - pg_catalog.clock_timestamp()))::int);
    raise exception 'too_many_stories' using errcode = 'PT429', hint = 'too_many_stories', detail = 'retry_after=' || wait;
  end if;
  return query
    insert into public.stories as s (author_id, media_url, media_path, media_type)
    values (me, create_story.media_url, create_story.media_path, create_story.media_type)
    returning s.*;
end $$;
