-- likes and comments (migrations 20250301001400, 001600): who reads, adds and removes what,
-- toggle_like, viewer_likes, comment_pages, and like_count/comment_count equal to their rows.
-- In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

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
create function pg_temp.us(t timestamptz) returns bigint language sql immutable as $$
  select (extract(epoch from t) * 1000000)::bigint
$$;
-- Every post's counters equal its rows (run as the owner).
create function pg_temp.counters_exact(label text) returns void language plpgsql as $$
declare drift text;
begin
  select string_agg(p.content || ' likes ' || p.like_count || ' comments ' || p.comment_count, '; ') into drift
  from public.posts p
  where p.like_count <> (select count(*) from public.post_likes l where l.post_id = p.id)
     or p.comment_count <> (select count(*) from public.comments c where c.post_id = p.id);
  if drift is not null then raise exception 'FAIL: %: counters drifted: %', label, drift; end if;
end $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- bob's public post, carol's private one, alice's.
insert into public.posts (id, author_id, content) values
  ('0000000b-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'bob post'),
  ('0000000c-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'carol post'),
  ('0000000a-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'alice post');
-- carol likes and comments on her own post; bob too (made as the owner: he cannot see it)
insert into public.post_likes (post_id, profile_id) values
  ('0000000c-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003'),
  ('0000000c-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002');
insert into public.comments (post_id, author_id, content) values
  ('0000000c-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'carol on carol'),
  ('0000000c-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'bob on carol');

-- ============ toggle_like ============
do $$
declare r jsonb; hint text;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  r := public.toggle_like('0000000b-0000-4000-8000-000000000001');
  if r <> '{"liked": true, "like_count": 1}' then raise exception 'FAIL: like: %', r; end if;
  r := public.toggle_like('0000000b-0000-4000-8000-000000000001');
  if r <> '{"liked": false, "like_count": 0}' then raise exception 'FAIL: unlike: %', r; end if;
  r := public.toggle_like('0000000b-0000-4000-8000-000000000001');
  if r <> '{"liked": true, "like_count": 1}' then raise exception 'FAIL: like again: %', r; end if;
  -- her own post too
  r := public.toggle_like('0000000a-0000-4000-8000-000000000001');
  if r <> '{"liked": true, "like_count": 1}' then raise exception 'FAIL: like her own post: %', r; end if;
  -- carol's private post and a missing one: not found, nothing changes
  begin
    perform public.toggle_like('0000000c-0000-4000-8000-000000000001');
    raise exception 'FAIL: alice liked carol''s private post';
  exception when sqlstate 'PT404' then
    get stacked diagnostics hint = pg_exception_hint;
    if hint <> 'post_not_found' then raise exception 'FAIL: hint %', hint; end if;
  end;
  begin
    perform public.toggle_like('eeeeeeee-0000-4000-8000-000000000000');
    raise exception 'FAIL: alice liked a missing post';
  exception when sqlstate 'PT404' then null;
  end;
  -- anonymous: told to sign in
  perform pg_temp.login(null);
  begin
    perform public.toggle_like('0000000b-0000-4000-8000-000000000001');
    raise exception 'FAIL: anon liked';
  exception when sqlstate 'PT401' then
    get stacked diagnostics hint = pg_exception_hint;
    if hint <> 'authentication_required' then raise exception 'FAIL: hint %', hint; end if;
  end;
  perform pg_temp.logout();
  perform pg_temp.counters_exact('after toggles');
end $$;

-- ============ post_likes directly (PostgREST) ============
do $$
declare n int;
begin
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  -- his own like on a visible post: yes; on someone's behalf, or on a hidden post: no
  insert into public.post_likes (post_id, profile_id) values ('0000000b-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004');
  begin
    insert into public.post_likes (post_id, profile_id) values ('0000000a-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002');
    raise exception 'FAIL: dave liked as bob';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.post_likes (post_id, profile_id) values ('0000000c-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004');
    raise exception 'FAIL: dave liked carol''s private post';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.post_likes (post_id, profile_id, created_at) values ('0000000a-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004', now() - interval '1 year');
    raise exception 'FAIL: a client chose a like''s created_at';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.post_likes set post_id = '0000000a-0000-4000-8000-000000000001';
    raise exception 'FAIL: a client updated a like';
  exception when insufficient_privilege then null;
  end;
  -- alice's like: not his to remove
  delete from public.post_likes where profile_id = 'a11ce000-0000-4000-8000-000000000001';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: dave removed alice''s likes'; end if;
  -- reads: the likes of visible posts only (bob's post: alice, dave; alice's: alice)
  select count(*) into n from public.post_likes;
  if n <> 3 then raise exception 'FAIL: dave reads % likes, 3 expected', n; end if;
  perform pg_temp.login(null);
  select count(*) into n from public.post_likes;
  if n <> 3 then raise exception 'FAIL: anon reads % likes, 3 expected', n; end if;
  begin
    insert into public.post_likes (post_id, profile_id) values ('0000000b-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004');
    raise exception 'FAIL: anon inserted a like';
  exception when insufficient_privilege then null;
  end;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(*) into n from public.post_likes;
  if n <> 5 then raise exception 'FAIL: carol reads % likes, 5 expected', n; end if;
  -- dave removes his own like
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  delete from public.post_likes where profile_id = 'd0000000-0000-4000-8000-000000000004';
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: dave could not remove his like'; end if;

  -- viewer_likes: the caller's, of visible posts; nothing for anon
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  if array(select public.viewer_likes(array['0000000b-0000-4000-8000-000000000001', '0000000a-0000-4000-8000-000000000001',
                                            '0000000c-0000-4000-8000-000000000001', 'eeeeeeee-0000-4000-8000-000000000000']::uuid[]) order by 1)
     <> array['0000000a-0000-4000-8000-000000000001', '0000000b-0000-4000-8000-000000000001']::uuid[] then
    raise exception 'FAIL: alice''s viewer_likes';
  end if;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  if exists (select public.viewer_likes(array['0000000c-0000-4000-8000-000000000001']::uuid[])) then
    raise exception 'FAIL: viewer_likes shows bob his like of a post he cannot see';
  end if;
  perform pg_temp.login(null);
  if exists (select public.viewer_likes(array['0000000b-0000-4000-8000-000000000001', '0000000a-0000-4000-8000-000000000001']::uuid[])) then
    raise exception 'FAIL: anon''s viewer_likes';
  end if;
  perform pg_temp.logout();
  perform pg_temp.counters_exact('after direct likes');
end $$;

-- ============ comments ============
do $$
declare n int; bad text; c text; alice_comment uuid; dave_comment uuid; bob_comment uuid;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'alice on bob')
  returning id into alice_comment;
  begin
    insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'as bob');
    raise exception 'FAIL: alice commented as bob';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.comments (post_id, author_id, content) values ('0000000c-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'on carol');
    raise exception 'FAIL: alice commented on carol''s private post';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.comments (post_id, author_id, content, created_at) values ('0000000b-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'x', now() - interval '1 day');
    raise exception 'FAIL: a client chose a comment''s created_at';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.comments set content = 'edited' where id = alice_comment;
    raise exception 'FAIL: a comment was edited';
  exception when insufficient_privilege then null;
  end;
  -- bounds: 16000 bytes (500 characters of 32 bytes), not blank
  insert into public.comments (post_id, author_id, content) values ('0000000a-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', repeat('🧗🏽', 500));
  foreach c in array array['', ' ', E'\n\t', repeat('x', 16001), repeat('🧗', 4001)] loop
    begin
      insert into public.comments (post_id, author_id, content) values ('0000000a-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', c);
      bad := concat_ws(', ', bad, quote_literal(left(c, 10)) || ' (' || char_length(c) || ')');
    exception when check_violation then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: comments accepted: %', bad; end if;
  delete from public.comments where post_id = '0000000a-0000-4000-8000-000000000001';

  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004', 'dave on bob')
  returning id into dave_comment;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'bob on bob')
  returning id into bob_comment;
  perform pg_temp.login(null);
  begin
    insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004', 'anon');
    raise exception 'FAIL: anon commented';
  exception when insufficient_privilege then null;
  end;
  -- reads: the comments of visible posts (bob's: 3); carol's post's comments for carol alone
  select count(*) into n from public.comments;
  if n <> 3 then raise exception 'FAIL: anon reads % comments, 3 expected', n; end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  select count(*) into n from public.comments;
  if n <> 3 then raise exception 'FAIL: alice reads % comments, 3 expected', n; end if;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(*) into n from public.comments;
  if n <> 5 then raise exception 'FAIL: carol reads % comments, 5 expected', n; end if;
  -- carol is private: her comment on bob's public post reaches her alone, not anon, alice or bob
  insert into public.comments (post_id, author_id, content) values ('0000000b-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'carol on bob');
  select count(*) into n from public.comments where content = 'carol on bob';
  if n <> 1 then raise exception 'FAIL: carol cannot read her own comment'; end if;
  perform pg_temp.login(null);
  select count(*) into n from public.comments where content = 'carol on bob';
  if n <> 0 then raise exception 'FAIL: anon reads a private profile''s comment'; end if;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  select count(*) into n from public.comments where content = 'carol on bob';
  if n <> 0 then raise exception 'FAIL: bob reads a private profile''s comment on his post'; end if;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  delete from public.comments where content = 'carol on bob';

  -- removal: not someone else's comment on someone else's post
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  delete from public.comments where id in (alice_comment, bob_comment);
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: dave removed others'' comments on bob''s post'; end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  delete from public.comments where id = bob_comment;
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice removed bob''s comment on his post'; end if;
  -- her own: yes
  delete from public.comments where id = alice_comment;
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: alice could not remove her comment'; end if;
  -- the post's author removes any comment on it
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  delete from public.comments where id = dave_comment;
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: bob could not remove dave''s comment on his post'; end if;
  -- ... but not one on carol's post he cannot see, not even his own
  delete from public.comments where post_id = '0000000c-0000-4000-8000-000000000001';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: bob removed comments on carol''s private post'; end if;
  perform pg_temp.logout();
  perform pg_temp.counters_exact('after comments');
  if (select comment_count from public.posts where id = '0000000b-0000-4000-8000-000000000001') <> 1 then
    raise exception 'FAIL: bob''s post''s comment_count';
  end if;
end $$;

-- ============ comment_pages ============
-- Five comments on alice's post, a minute apart (made as the owner, to set the times).
insert into public.comments (id, post_id, author_id, content, created_at)
select ('0000c000-0000-4000-8000-00000000000' || i)::uuid, '0000000a-0000-4000-8000-000000000001',
       'd0000000-0000-4000-8000-000000000004', 'comment ' || i, now() - interval '1 hour' + i * interval '1 minute'
from generate_series(1, 5) i;

do $$
declare
  alice_post constant text := '0000000a-0000-4000-8000-000000000001';
  got text; n int; c record; j jsonb;
begin
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  -- oldest first, limit + 1, the post's count
  select string_agg(right(comment ->> 'id', 1), '' order by o), max(total_count) into got, n
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', alice_post, 'limit', 2)))
       with ordinality as t(request_index, total_count, comment, o);
  if got <> '123' or n <> 5 then raise exception 'FAIL: first comment page: % (total %)', got, n; end if;
  -- after the second: 3, 4, 5
  select * into c from public.comments where id = '0000c000-0000-4000-8000-000000000002';
  select string_agg(right(comment ->> 'id', 1), '' order by o) into got
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', alice_post, 'limit', 5,
         'cursor_us', pg_temp.us(c.created_at), 'cursor_id', c.id))) with ordinality as t(a, b, comment, o);
  if got <> '345' then raise exception 'FAIL: comments after the second: %', got; end if;
  -- backward from the fifth: the older ones, newest first
  select * into c from public.comments where id = '0000c000-0000-4000-8000-000000000005';
  select string_agg(right(comment ->> 'id', 1), '' order by o) into got
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', alice_post, 'limit', 2, 'backward', true,
         'cursor_us', pg_temp.us(c.created_at), 'cursor_id', c.id))) with ordinality as t(a, b, comment, o);
  if got <> '432' then raise exception 'FAIL: comments before the fifth: %', got; end if;
  -- the JSON
  select comment into j from public.comment_pages(jsonb_build_array(jsonb_build_object('post', alice_post, 'limit', 0)));
  if (select array_agg(k order by k) from jsonb_object_keys(j) k) <> array['author_id', 'content', 'created_at', 'id', 'post_id']
     or j <> public.comment_json((select x from public.comments x where x.id = '0000c000-0000-4000-8000-000000000001')) then
    raise exception 'FAIL: comment JSON %', j;
  end if;
  -- several posts in one call; a post without comments, or one the caller cannot see, is one
  -- row with a null comment and (hidden) a total of 0
  select string_agg(request_index || ':' || coalesce(right(comment ->> 'content', 1), '-') || ':' || total_count, ' ' order by o) into got
  from public.comment_pages(jsonb_build_array(
         jsonb_build_object('post', '0000000c-0000-4000-8000-000000000001', 'limit', 5),
         jsonb_build_object('post', alice_post, 'limit', 0),
         jsonb_build_object('post', '0000000b-0000-4000-8000-000000000001', 'limit', 5),
         jsonb_build_object('post', 'eeeeeeee-0000-4000-8000-000000000000', 'limit', 5)))
       with ordinality as t(request_index, total_count, comment, o);
  if got <> '0:-:0 1:1:5 2:b:1 3:-:0' then raise exception 'FAIL: batched comment_pages: %', got; end if;
  -- carol sees the comments on her post
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(comment) into n
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', '0000000c-0000-4000-8000-000000000001', 'limit', 5)));
  if n <> 2 then raise exception 'FAIL: carol''s comments on her post: %', n; end if;
  perform pg_temp.logout();
end $$;

-- ============ cascades ============
-- Deleting a post removes its likes and comments; deleting a user removes theirs everywhere,
-- and the remaining counters stay exact.
do $$ begin
  delete from public.posts where id = '0000000c-0000-4000-8000-000000000001';
  if exists (select 1 from public.post_likes where post_id = '0000000c-0000-4000-8000-000000000001')
     or exists (select 1 from public.comments where post_id = '0000000c-0000-4000-8000-000000000001') then
    raise exception 'FAIL: a deleted post''s likes or comments remain';
  end if;
  if (select post_count from public.profiles where id = 'ca201000-0000-4000-8000-000000000003') <> 0 then
    raise exception 'FAIL: carol''s post_count after her post went';
  end if;
  delete from auth.users where id = 'd0000000-0000-4000-8000-000000000004';  -- dave's five comments
  perform pg_temp.counters_exact('after deleting dave');
  if (select comment_count from public.posts where id = '0000000a-0000-4000-8000-000000000001') <> 0 then
    raise exception 'FAIL: dave''s comments still counted';
  end if;
end $$;

rollback;
