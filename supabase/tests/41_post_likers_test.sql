-- Who liked a post (migration 20250301004100, issue 54): newest like first, each liker only when
-- the caller sees it (the edge rule), total the stored like_count, nothing of a post the caller
-- does not see, every request of a call answered in order. mia posts (public); nia (public) and
-- oli (private, followed by pia) like it; qin (private) posts and nia likes that. In one
-- transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

insert into auth.users (id, email) values
  ('b1000000-0000-4000-8000-000000000041', 'mia@example.com'),
  ('b2000000-0000-4000-8000-000000000041', 'nia@example.com'),
  ('b3000000-0000-4000-8000-000000000041', 'oli@example.com'),
  ('b4000000-0000-4000-8000-000000000041', 'pia@example.com'),
  ('b5000000-0000-4000-8000-000000000041', 'qin@example.com');
update public.profiles set handle = 'mia_posts' where id = 'b1000000-0000-4000-8000-000000000041';
update public.profiles set handle = 'nia_likes' where id = 'b2000000-0000-4000-8000-000000000041';
update public.profiles set handle = 'oli_private' where id = 'b3000000-0000-4000-8000-000000000041';
update public.profiles set handle = 'pia_follows' where id = 'b4000000-0000-4000-8000-000000000041';
update public.profiles set handle = 'qin_private' where id = 'b5000000-0000-4000-8000-000000000041';
insert into public.follows (follower_id, followee_id) values ('b4000000-0000-4000-8000-000000000041', 'b3000000-0000-4000-8000-000000000041');
update public.profiles set is_public = false
  where id in ('b3000000-0000-4000-8000-000000000041', 'b5000000-0000-4000-8000-000000000041');
insert into public.posts (id, author_id, content) values
  ('c1000000-0000-4000-8000-000000000041', 'b1000000-0000-4000-8000-000000000041', 'mia''s post'),
  ('c2000000-0000-4000-8000-000000000041', 'b5000000-0000-4000-8000-000000000041', 'qin''s post');
insert into public.post_likes (post_id, profile_id, created_at) values
  ('c1000000-0000-4000-8000-000000000041', 'b2000000-0000-4000-8000-000000000041', now() - interval '2 minutes'),
  ('c1000000-0000-4000-8000-000000000041', 'b3000000-0000-4000-8000-000000000041', now() - interval '1 minute'),
  ('c2000000-0000-4000-8000-000000000041', 'b2000000-0000-4000-8000-000000000041', now());

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  if who is null then
    perform set_config('role', 'anon', true);
    perform set_config('request.jwt.claims', '', true);
  else
    perform set_config('role', 'authenticated', true);
    perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
  end if;
end $$;

create function pg_temp.handles(page jsonb) returns text language sql as $$
  select coalesce(string_agg(l -> 'profile' ->> 'handle', ',' order by n), '') from jsonb_array_elements(page -> 'likers') with ordinality as x(l, n)
$$;

do $$
declare
  mia_post constant text := 'c1000000-0000-4000-8000-000000000041';
  qin_post constant text := 'c2000000-0000-4000-8000-000000000041';
  nia constant uuid := 'b2000000-0000-4000-8000-000000000041';
  pia constant uuid := 'b4000000-0000-4000-8000-000000000041';
  pages jsonb;
begin
  if (select like_count from public.posts where id = mia_post::uuid) <> 2 then raise exception 'FAIL: like_count'; end if;

  -- anon: mia's post shows nia only (oli is private), counted 2; qin's post nothing, 0
  perform pg_temp.login(null);
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object('post', mia_post, 'limit', 10),
                                                jsonb_build_object('post', qin_post, 'limit', 10)));
  if jsonb_array_length(pages) <> 2 then raise exception 'FAIL: anon pages: %', pages; end if;
  if pg_temp.handles(pages -> 0) <> 'nia_likes' or (pages -> 0 ->> 'total')::int <> 2 then raise exception 'FAIL: anon on mia''s post: %', pages; end if;
  if pages -> 1 <> '{"total": 0, "likers": []}'::jsonb then raise exception 'FAIL: anon on qin''s post: %', pages; end if;
  reset role;

  -- pia follows oli: both likers, newest first; one at a time by the keyset
  perform pg_temp.login(pia);
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object('post', mia_post, 'limit', 10)));
  if pg_temp.handles(pages -> 0) <> 'oli_private,nia_likes' then raise exception 'FAIL: pia''s likers: %', pages; end if;
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object('post', mia_post, 'limit', 1)));
  if pg_temp.handles(pages -> 0) <> 'oli_private,nia_likes' then raise exception 'FAIL: limit 1 reads one more: %', pages; end if;
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object(
             'post', mia_post, 'limit', 1, 'after_us', pages -> 0 -> 'likers' -> 0 -> 'liked_us',
             'after_id', pages -> 0 -> 'likers' -> 0 -> 'profile' ->> 'id')));
  if pg_temp.handles(pages -> 0) <> 'nia_likes' then raise exception 'FAIL: pia''s second page: %', pages; end if;
  reset role;

  -- nia sees her own like on qin's post? No: she does not see qin, so the post is not hers to read
  perform pg_temp.login(nia);
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object('post', qin_post, 'limit', 10)));
  if pages -> 0 <> '{"total": 0, "likers": []}'::jsonb then raise exception 'FAIL: nia on qin''s post: %', pages; end if;
  -- a block hides the liker: mia blocks nothing, nia blocks oli
  perform public.block_profile('b3000000-0000-4000-8000-000000000041');
  pages := public.liker_pages(jsonb_build_array(jsonb_build_object('post', mia_post, 'limit', 10)));
  if pg_temp.handles(pages -> 0) <> 'nia_likes' or (pages -> 0 ->> 'total')::int <> 2 then raise exception 'FAIL: across a block: %', pages; end if;
  reset role;

  -- bad input: not an array
  begin
    perform public.liker_pages('{}'::jsonb);
    raise exception 'FAIL: an object was accepted';
  exception when invalid_parameter_value then null;
  end;
end $$;
reset role;
rollback;
