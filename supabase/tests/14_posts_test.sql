-- posts (migrations 20250301001300, post_pages of 001600): bounds, who reads and writes what,
-- post_count, updated_at, and post_pages' visibility, keyset paging and JSON.
-- In one transaction, rolled back: later files and the concurrency checks start without posts.
\set ON_ERROR_STOP 1
begin;

-- login(null): anon; login(id): that user, as PostgREST runs a request.
create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', case when who is null then 'anon' else 'authenticated' end, true);
  perform set_config('request.jwt.claims',
    case when who is null then '' else json_build_object('sub', who, 'role', 'authenticated')::text end, true);
end $$;
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end $$;

-- Posts made as the table owner, an hour apart, oldest first: alice 3, bob 2, carol (private) 2.
-- 0000000a-...: alice's, 0000000b: bob's, 0000000c: carol's.
insert into public.posts (id, author_id, content, image_urls, created_at, updated_at) values
  ('0000000a-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'alice one', '{}', now() - interval '10 hours', now() - interval '10 hours'),
  ('0000000a-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001', 'alice two', '{https://img.example/2.jpg}', now() - interval '9 hours', now() - interval '9 hours'),
  ('0000000a-0000-4000-8000-000000000003', 'a11ce000-0000-4000-8000-000000000001', 'alice three', '{}', now() - interval '8 hours', now() - interval '8 hours'),
  ('0000000b-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'bob one', '{}', now() - interval '7 hours', now() - interval '7 hours'),
  ('0000000b-0000-4000-8000-000000000002', 'b0b00000-0000-4000-8000-000000000002', 'bob two', '{}', now() - interval '6 hours', now() - interval '6 hours'),
  ('0000000c-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'carol secret one', '{}', now() - interval '5 hours', now() - interval '5 hours'),
  ('0000000c-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'carol secret two', '{}', now() - interval '4 hours', now() - interval '4 hours');

-- post_count follows inserts made by anyone (here the owner).
do $$ begin
  if (select string_agg(handle || '=' || post_count, ',' order by handle_lower) from public.profiles)
     <> 'alice_wonder=3,Bob_Builder=2,carol_creator=2,dave_dyno=0' then
    raise exception 'FAIL: post_count after the fixtures: %',
      (select string_agg(handle || '=' || post_count, ',' order by handle_lower) from public.profiles);
  end if;
end $$;

-- ============ reads ============
do $$
declare n int;
begin
  -- anon: the public authors' posts only
  perform pg_temp.login(null);
  if (select count(*) from public.posts) <> 5 or exists (select 1 from public.posts where content like 'carol%') then
    raise exception 'FAIL: anon reads % posts (5 public expected) or a private author''s', (select count(*) from public.posts);
  end if;
  -- alice: the same
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  if exists (select 1 from public.posts where author_id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: alice reads carol''s posts';
  end if;
  -- carol: everyone's, her own included
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(*) into n from public.posts;
  if n <> 7 then raise exception 'FAIL: carol reads % posts, 7 expected', n; end if;
  perform pg_temp.logout();
end $$;

-- ============ writes ============
do $$
declare n int; before timestamptz; r record; col text;
begin
  perform pg_temp.login(null);
  begin
    insert into public.posts (author_id, content) values ('a11ce000-0000-4000-8000-000000000001', 'anon');
    raise exception 'FAIL: anon inserted a post';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.posts set content = 'anon edit';
    raise exception 'FAIL: anon updated posts';
  exception when insufficient_privilege then null;
  end;

  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  -- her own post, with the id she chose: defaults fill the rest
  insert into public.posts (id, author_id, content, image_urls)
  values ('0000000a-0000-4000-8000-000000000004', 'a11ce000-0000-4000-8000-000000000001', 'alice four',
          '{https://img.example/a.jpg,http://img.example/b.png}')
  returning * into r;
  if r.like_count <> 0 or r.comment_count <> 0 or r.created_at <> now() or r.updated_at <> now() then
    raise exception 'FAIL: a new post''s defaults: %', r;
  end if;
  -- not on bob's behalf
  begin
    insert into public.posts (author_id, content) values ('b0b00000-0000-4000-8000-000000000002', 'as bob');
    raise exception 'FAIL: alice posted as bob';
  exception when insufficient_privilege then null;
  end;
  -- no choosing the time or the counters
  begin
    insert into public.posts (author_id, content, created_at) values ('a11ce000-0000-4000-8000-000000000001', 'x', now() + interval '1 year');
    raise exception 'FAIL: a client chose created_at';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.posts (author_id, content, like_count) values ('a11ce000-0000-4000-8000-000000000001', 'x', 100);
    raise exception 'FAIL: a client chose like_count';
  exception when insufficient_privilege then null;
  end;
  foreach col in array array['like_count = 5', 'comment_count = 5', 'created_at = now()', 'updated_at = now()',
                                   'author_id = ''b0b00000-0000-4000-8000-000000000002''', 'id = gen_random_uuid()'] loop
    begin
      execute 'update public.posts set ' || col || ' where id = ''0000000a-0000-4000-8000-000000000001''';
      raise exception 'FAIL: a client updated posts.%', col;
    exception when insufficient_privilege then null;
    end;
  end loop;
  begin
    update public.profiles set post_count = 100 where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: a client wrote post_count';
  exception when insufficient_privilege then null;
  end;
  -- bob's posts: neither updated nor deleted (0 rows)
  update public.posts set content = 'hacked' where author_id = 'b0b00000-0000-4000-8000-000000000002';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice updated bob''s posts'; end if;
  delete from public.posts where author_id <> 'a11ce000-0000-4000-8000-000000000001';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice deleted others'' posts'; end if;
  -- her own: text and images, and updated_at moves
  update public.posts set content = 'alice one, edited', image_urls = '{https://img.example/1.jpg}'
  where id = '0000000a-0000-4000-8000-000000000001'
  returning * into r;
  if r.updated_at <> now() or r.created_at = now() then raise exception 'FAIL: an edit''s times: %', r; end if;
  perform pg_temp.logout();

  -- counters do not move updated_at (the counter triggers update posts as the owner)
  select updated_at into before from public.posts where id = '0000000a-0000-4000-8000-000000000002';
  update public.posts set like_count = like_count + 1, comment_count = comment_count + 1 where id = '0000000a-0000-4000-8000-000000000002';
  if (select updated_at from public.posts where id = '0000000a-0000-4000-8000-000000000002') <> before then
    raise exception 'FAIL: a counter update moved updated_at';
  end if;
  update public.posts set like_count = like_count - 1, comment_count = comment_count - 1 where id = '0000000a-0000-4000-8000-000000000002';

  -- post_count: 4 now, 3 after alice deletes one of hers
  if (select post_count from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <> 4 then
    raise exception 'FAIL: post_count after alice''s insert';
  end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  delete from public.posts where id = '0000000a-0000-4000-8000-000000000004';
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: alice could not delete her own post'; end if;
  perform pg_temp.logout();
  if (select post_count from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <> 3 then
    raise exception 'FAIL: post_count after alice''s delete';
  end if;
end $$;

-- ============ bounds ============
do $$
declare bad text[]; c text;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  -- accepted at the limits: 64000 bytes (2000 characters of 32 bytes, the gateway's bound);
  -- 2000 climbers with a skin tone (4000 code points, what the gateway counts as 2000); 4 URLs
  -- of 2048 bytes
  insert into public.posts (author_id, content) values ('a11ce000-0000-4000-8000-000000000001', repeat('x', 64000));
  insert into public.posts (author_id, content) values ('a11ce000-0000-4000-8000-000000000001', repeat('🧗🏽', 2000));
  insert into public.posts (author_id, content, image_urls) values ('a11ce000-0000-4000-8000-000000000001', 'four',
    array_fill('https://img.example/' || repeat('a', 2048 - 20), array[4]));
  -- refused: blank, too long, too many or malformed URLs
  foreach c in array array[
      $q$'', '{}'$q$, $q$'   ', '{}'$q$, $q$E' \n\t\r ', '{}'$q$,
      $q$repeat('x', 64001), '{}'$q$, $q$repeat('🧗', 16001), '{}'$q$,
      $q$'five', array_fill('https://img.example/x.jpg'::text, array[5])$q$,
      $q$'ftp', '{ftp://img.example/x.jpg}'$q$, $q$'js', '{javascript:alert(1)}'$q$,
      $q$'relative', '{/x.jpg}'$q$, $q$'null url', array[null]::text[]$q$,
      $q$'long url', array['https://img.example/' || repeat('a', 2049 - 20)]$q$,
      $q$'two dimensions', '{{https://a.example/1,https://a.example/2}}'$q$] loop
    begin
      execute 'insert into public.posts (author_id, content, image_urls) values (''a11ce000-0000-4000-8000-000000000001'', '
        || c || ')';
      bad := bad || c;
    exception when check_violation or not_null_violation then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: accepted %', bad; end if;
  begin
    insert into public.posts (author_id, content, image_urls) values ('a11ce000-0000-4000-8000-000000000001', 'null urls', null);
    raise exception 'FAIL: null image_urls';
  exception when not_null_violation then null;
  end;
  delete from public.posts where author_id = 'a11ce000-0000-4000-8000-000000000001' and content not like 'alice%';
  perform pg_temp.logout();
end $$;

-- ============ post_pages ============
create function pg_temp.us(t timestamptz) returns bigint language sql immutable as $$
  select (extract(epoch from t) * 1000000)::bigint
$$;
grant execute on function pg_temp.us(timestamptz) to anon, authenticated;

do $$
declare
  alice constant text := 'a11ce000-0000-4000-8000-000000000001';
  carol constant text := 'ca201000-0000-4000-8000-000000000003';
  ids text; r record; n int; liked boolean; first_page jsonb;
begin
  -- bob likes alice's second post (as the owner, the likes test covers the rules)
  insert into public.post_likes (post_id, profile_id) values ('0000000a-0000-4000-8000-000000000002', 'b0b00000-0000-4000-8000-000000000002');

  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  -- newest first, limit + 1 rows, the author's count, bob's like
  select string_agg(right(post ->> 'id', 1), '' order by o), max(total_count), bool_or(viewer_has_liked)
  into ids, n, liked
  from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 2)))
       with ordinality as t(request_index, total_count, post, viewer_has_liked, o);
  if ids <> '321' or n <> 3 then raise exception 'FAIL: alice''s first page as bob: % (total %)', ids, n; end if;
  if not liked then raise exception 'FAIL: viewer_has_liked'; end if;
  if (select viewer_has_liked from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 5)))
      where post ->> 'id' = '0000000a-0000-4000-8000-000000000003') then
    raise exception 'FAIL: viewer_has_liked on a post bob does not like';
  end if;

  -- the JSON: exactly these keys, the row's values
  select post into first_page from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 5)))
  where post ->> 'id' = '0000000a-0000-4000-8000-000000000002';
  if (select array_agg(k order by k) from jsonb_object_keys(first_page) k)
     <> array['author_id', 'comment_count', 'content', 'created_at', 'id', 'image_urls', 'like_count', 'updated_at'] then
    raise exception 'FAIL: post JSON keys %', first_page;
  end if;
  if first_page -> 'image_urls' <> '["https://img.example/2.jpg"]' or (first_page ->> 'like_count')::int <> 1
     or (first_page ->> 'created_at')::timestamptz <> (select created_at from public.posts where id = '0000000a-0000-4000-8000-000000000002')
     or first_page <> public.post_json((select p from public.posts p where id = '0000000a-0000-4000-8000-000000000002')) then
    raise exception 'FAIL: post JSON %', first_page;
  end if;

  -- keyset: after the second post comes the first, then nothing more
  select * into r from public.posts where id = '0000000a-0000-4000-8000-000000000002';
  select string_agg(right(post ->> 'id', 1), '') into ids
  from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 5,
         'cursor_us', pg_temp.us(r.created_at), 'cursor_id', r.id)));
  if ids <> '1' then raise exception 'FAIL: the page after post 2: %', ids; end if;
  -- backward from the first post: the newer ones, oldest first
  select * into r from public.posts where id = '0000000a-0000-4000-8000-000000000001';
  select string_agg(right(post ->> 'id', 1), '' order by o) into ids
  from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 1, 'backward', true,
         'cursor_us', pg_temp.us(r.created_at), 'cursor_id', r.id))) with ordinality as t(a, b, post, c, o);
  if ids <> '23' then raise exception 'FAIL: backward page before post 1: %', ids; end if;

  -- several authors in one call, each its own rows in request order; a page past the end,
  -- and an author without posts, give one row with a null post; limit 0 still fetches 1
  select string_agg(request_index || ':' || coalesce(right(post ->> 'id', 1), '-') || ':' || total_count, ' ' order by o) into ids
  from public.post_pages(jsonb_build_array(
         jsonb_build_object('author', 'b0b00000-0000-4000-8000-000000000002', 'limit', 0),
         jsonb_build_object('author', 'd0000000-0000-4000-8000-000000000004', 'limit', 3),
         jsonb_build_object('author', alice, 'limit', 5, 'cursor_us', 0, 'cursor_id', '00000000-0000-0000-0000-000000000000'),
         jsonb_build_object('author', alice, 'limit', 1))) with ordinality as t(request_index, total_count, post, c, o);
  if ids <> '0:2:2 1:-:0 2:-:3 3:3:3 3:2:3' then raise exception 'FAIL: batched post_pages %', ids; end if;
  -- a huge limit is clamped (to 100), not an error
  select count(*) into n from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 100000)));
  if n <> 3 then raise exception 'FAIL: a huge limit: % rows', n; end if;

  -- carol is private: no posts and a total of 0 for bob, for anon; everything for carol
  if exists (select 1 from public.post_pages(jsonb_build_array(jsonb_build_object('author', carol, 'limit', 5)))
             where post is not null or total_count <> 0) then
    raise exception 'FAIL: bob sees carol''s posts or count through post_pages';
  end if;
  perform pg_temp.login(null);
  if exists (select 1 from public.post_pages(jsonb_build_array(jsonb_build_object('author', carol, 'limit', 5)))
             where post is not null or total_count <> 0) then
    raise exception 'FAIL: anon sees carol''s posts through post_pages';
  end if;
  -- anon: public posts, never liked
  if (select count(*) from public.post_pages(jsonb_build_array(jsonb_build_object('author', alice, 'limit', 5))) where not viewer_has_liked) <> 3 then
    raise exception 'FAIL: anon''s page of alice''s posts';
  end if;
  perform pg_temp.login(carol::uuid);
  select string_agg(right(post ->> 'id', 1), '') , max(total_count) into ids, n
  from public.post_pages(jsonb_build_array(jsonb_build_object('author', carol, 'limit', 5)));
  if ids <> '21' or n <> 2 then raise exception 'FAIL: carol''s own posts: % (total %)', ids, n; end if;
  perform pg_temp.logout();
end $$;

-- profile_json carries post_count (follow_pages, the follow mutations' outcome).
do $$ begin
  if (select public.profile_json(p) ->> 'post_count' from public.profiles p where id = 'a11ce000-0000-4000-8000-000000000001') <> '3' then
    raise exception 'FAIL: profile_json without post_count';
  end if;
end $$;

-- Deleting a profile (its user) removes its posts and likes; the counters of what remains are right.
do $$ begin
  insert into public.post_likes (post_id, profile_id) values ('0000000b-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001');
  delete from auth.users where id = 'a11ce000-0000-4000-8000-000000000001';
  if exists (select 1 from public.posts where author_id = 'a11ce000-0000-4000-8000-000000000001')
     or (select like_count from public.posts where id = '0000000b-0000-4000-8000-000000000001') <> 0
     or (select post_count from public.profiles where id = 'b0b00000-0000-4000-8000-000000000002') <> 2 then
    raise exception 'FAIL: a deleted profile''s posts and likes';
  end if;
end $$;

rollback;
