-- Cache notifications for posts, likes, comments and stories (migration 20250301001700): the
-- tags social_private.cache_tags gives for their writes, post_count as a counter of profiles,
-- and the triggers attached to the four tables. scripts/test-supabase-sql LISTENs to a post,
-- a like and a comment to see them really sent.
\set ON_ERROR_STOP 1

create function pg_temp.expect(label text, got text[], want text[]) returns void
language plpgsql as $$
begin
  if got is null
     or array(select t from unnest(got) t order by t collate "C")
        is distinct from array(select t from unnest(want) t order by t collate "C") then
    raise exception 'FAIL: % gave %, expected %', label, got, want;
  end if;
end $$;

do $$
declare
  a constant text := 'a11ce000-0000-4000-8000-000000000001';
  b constant text := 'b0b00000-0000-4000-8000-000000000002';
  pid constant text := '0000000a-0000-4000-8000-000000000001';
  p jsonb := jsonb_build_object('id', pid, 'author_id', a, 'content', 'hi', 'image_urls', '[]'::jsonb,
                                'like_count', 0, 'comment_count', 0, 'created_at', now(), 'updated_at', now());
  post_tags constant text[] := array['Post:' || pid, 'posts:' || a, 'Profile:' || a];
  l jsonb := jsonb_build_object('post_id', pid, 'profile_id', b, 'created_at', now());
  c jsonb := jsonb_build_object('id', gen_random_uuid(), 'post_id', pid, 'author_id', b, 'content', 'nice', 'created_at', now());
  s jsonb := jsonb_build_object('id', gen_random_uuid(), 'author_id', b, 'media_url', 'https://x.example/s.jpg',
                                'media_path', b || '/s.jpg', 'media_type', 'image', 'created_at', now(), 'expires_at', now());
  prof jsonb := (select to_jsonb(x) from public.profiles x where x.id = a::uuid);
begin
  if prof is null or not prof ? 'post_count' then raise exception 'FAIL: the fixtures lack alice, or profiles post_count'; end if;

  -- posts: the post, its author's list and profile, whatever the write (a counter update too)
  perform pg_temp.expect('posts insert', social_private.cache_tags('posts', null, p), post_tags);
  perform pg_temp.expect('posts edit', social_private.cache_tags('posts', p, p || '{"content":"edited"}'), post_tags);
  perform pg_temp.expect('posts like_count update', social_private.cache_tags('posts', p, p || '{"like_count":1}'), post_tags);
  perform pg_temp.expect('posts delete', social_private.cache_tags('posts', p, null), post_tags);
  perform pg_temp.expect('posts moved to another author',
    social_private.cache_tags('posts', p, p || jsonb_build_object('author_id', b)),
    post_tags || array['posts:' || b, 'Profile:' || b]);
  perform pg_temp.expect('posts upper-case ids',
    social_private.cache_tags('posts', null, p || jsonb_build_object('id', upper(pid), 'author_id', upper(a))), post_tags);
  -- likes: the post
  perform pg_temp.expect('post_likes insert', social_private.cache_tags('post_likes', null, l), array['Post:' || pid]);
  perform pg_temp.expect('post_likes delete', social_private.cache_tags('post_likes', l, null), array['Post:' || pid]);
  -- comments: the post and its comment list
  perform pg_temp.expect('comments insert', social_private.cache_tags('comments', null, c), array['Post:' || pid, 'comments:' || pid]);
  perform pg_temp.expect('comments delete', social_private.cache_tags('comments', c, null), array['Post:' || pid, 'comments:' || pid]);
  -- stories: the author's stories
  perform pg_temp.expect('stories insert', social_private.cache_tags('stories', null, s), array['stories:' || b]);
  perform pg_temp.expect('stories delete', social_private.cache_tags('stories', s, null), array['stories:' || b]);
  -- profiles: post_count is a counter (the posts trigger's update), so no `search`
  perform pg_temp.expect('profiles post_count update',
    social_private.cache_tags('profiles', prof, prof || jsonb_build_object('post_count', (prof ->> 'post_count')::int + 1)),
    array['Profile:' || a]);
  perform pg_temp.expect('profiles bio and post_count update',
    social_private.cache_tags('profiles', prof, prof || jsonb_build_object('bio', 'new', 'post_count', (prof ->> 'post_count')::int + 1)),
    array['Profile:' || a, 'search']);
  -- 001200's tags are unchanged (13_cache_notify_test checks them all; one of each here)
  perform pg_temp.expect('follows insert',
    social_private.cache_tags('follows', null, jsonb_build_object('follower_id', a, 'followee_id', b)),
    array['Profile:' || a, 'Profile:' || b, 'followers:' || b, 'following:' || a]);
  perform pg_temp.expect('profiles visibility change',
    social_private.cache_tags('profiles', prof, prof || jsonb_build_object('is_public', not (prof ->> 'is_public')::boolean)),
    array['Profile:' || a, 'search', 'follow-lists']);

  -- rows without their ids are refused
  begin
    perform social_private.cache_tags('posts', null, p - 'author_id');
    raise exception 'FAIL: tags for a post without its author';
  exception when raise_exception then
    if sqlerrm like 'FAIL:%' then raise; end if;
  end;
  begin
    perform social_private.cache_tags('comments', null, c - 'post_id');
    raise exception 'FAIL: tags for a comment without its post';
  exception when raise_exception then
    if sqlerrm like 'FAIL:%' then raise; end if;
  end;
  begin
    perform social_private.cache_tags('nothing_cached', null, p);
    raise exception 'FAIL: tags for a table the cache does not read';
  exception when raise_exception then
    if sqlerrm like 'FAIL:%' then raise; end if;
  end;
end $$;

-- The triggers: AFTER INSERT OR UPDATE OR DELETE, FOR EACH ROW, enabled, calling cache_notify.
do $$
declare missing text;
begin
  select string_agg(t.tab, ', ') into missing
  from unnest(array['public.posts', 'public.post_likes', 'public.comments', 'public.stories',
                    'public.follows', 'public.profiles', 'public.profile_private']) as t(tab)
  where not exists (
    select 1 from pg_trigger g
    where g.tgrelid = t.tab::regclass and not g.tgisinternal
      and g.tgfoid = 'social_private.cache_notify()'::regprocedure
      and g.tgenabled in ('O', 'A')
      and g.tgtype = 1 | 4 | 8 | 16
      and g.tgattr = '');
  if missing is not null then
    raise exception 'FAIL: no enabled AFTER INSERT OR UPDATE OR DELETE row trigger calling cache_notify on %', missing;
  end if;
end $$;

-- Writes as a user go through (the definer trigger function), likes and comments included.
begin;
set local role authenticated;
select set_config('request.jwt.claims', '{"sub":"b0b00000-0000-4000-8000-000000000002","role":"authenticated"}', true);
insert into public.posts (id, author_id, content) values ('0000000b-0000-4000-8000-0000000000ff', 'b0b00000-0000-4000-8000-000000000002', 'notify');
select public.toggle_like('0000000b-0000-4000-8000-0000000000ff') ->> 'liked';
insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-0000000000ff', 'b0b00000-0000-4000-8000-000000000002', 'self');
-- a story through create_story (migration 20250301002000), its file first as Storage records it
insert into storage.objects (bucket_id, name) values ('stories', 'b0b00000-0000-4000-8000-000000000002/1740912672_5e1f0000.jpg');
select id from public.create_story('b0b00000-0000-4000-8000-000000000002/1740912672_5e1f0000.jpg', 'image',
  'https://ref.supabase.co/storage/v1/object/public/stories/b0b00000-0000-4000-8000-000000000002/1740912672_5e1f0000.jpg');
delete from public.posts where id = '0000000b-0000-4000-8000-0000000000ff';
rollback;
