-- the seeds' last rules (migration 20250301002500, issue 40): set_like safe to repeat, and
-- search_profiles_ranked (exact handle, then prefix, then the rest; keyset paging), as anon and
-- authenticated. In one transaction, rolled back.
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
grant execute on all functions in schema pg_temp to anon, authenticated;

-- bob's public post, carol's private one.
insert into public.posts (id, author_id, content) values
  ('0000000b-0000-4000-8000-000000000025', 'b0b00000-0000-4000-8000-000000000002', 'bob post'),
  ('0000000c-0000-4000-8000-000000000025', 'ca201000-0000-4000-8000-000000000003', 'carol post');

-- ============ set_like ============
do $$
declare r jsonb; hint text; got text; n int;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  r := public.set_like('0000000b-0000-4000-8000-000000000025', true);
  if r <> '{"liked": true, "like_count": 1, "changed": true}' then raise exception 'FAIL: like: %', r; end if;
  r := public.set_like('0000000b-0000-4000-8000-000000000025', true);
  if r <> '{"liked": true, "like_count": 1, "changed": false}' then raise exception 'FAIL: like again: %', r; end if;
  select count(*) into n from public.post_likes where post_id = '0000000b-0000-4000-8000-000000000025';
  if n <> 1 then raise exception 'FAIL: % like rows after liking twice', n; end if;
  -- toggle_like after like: unliked
  r := public.toggle_like('0000000b-0000-4000-8000-000000000025');
  if r <> '{"liked": false, "like_count": 0}' then raise exception 'FAIL: toggle after like: %', r; end if;
  r := public.set_like('0000000b-0000-4000-8000-000000000025', false);
  if r <> '{"liked": false, "like_count": 0, "changed": false}' then raise exception 'FAIL: unlike not liked: %', r; end if;
  r := public.set_like('0000000b-0000-4000-8000-000000000025', true);
  r := public.set_like('0000000b-0000-4000-8000-000000000025', false);
  if r <> '{"liked": false, "like_count": 0, "changed": true}' then raise exception 'FAIL: unlike: %', r; end if;
  r := public.set_like('0000000b-0000-4000-8000-000000000025', false);
  if r <> '{"liked": false, "like_count": 0, "changed": false}' then raise exception 'FAIL: unlike again: %', r; end if;
  -- carol's private post and a missing one: not found
  foreach hint in array array['0000000c-0000-4000-8000-000000000025', 'eeeeeeee-0000-4000-8000-000000000000'] loop
    begin
      perform public.set_like(hint::uuid, true);
      raise exception 'FAIL: alice liked %', hint;
    exception when sqlstate 'PT404' then null;
    end;
  end loop;
  -- anonymous: told to sign in, with what was tried
  perform pg_temp.login(null);
  begin
    perform public.set_like('0000000b-0000-4000-8000-000000000025', true);
    raise exception 'FAIL: anon liked';
  exception when sqlstate 'PT401' then
    get stacked diagnostics hint = pg_exception_hint, got = pg_exception_detail;
    if hint <> 'authentication_required' or got <> 'action=like_posts' then
      raise exception 'FAIL: hint %, detail %', hint, got;
    end if;
  end;
  perform pg_temp.logout();
  select count(*) into n from public.post_likes where post_id = '0000000c-0000-4000-8000-000000000025';
  if n <> 0 then raise exception 'FAIL: a like on the hidden post'; end if;
end $$;

-- ============ search_profiles_ranked ============
insert into auth.users (id, email, raw_user_meta_data) values
  ('00000025-0000-4000-8000-000000000001', 'b1@example.com', '{"handle": "bob"}'),
  ('00000025-0000-4000-8000-000000000002', 'b2@example.com', '{"handle": "bobby"}'),
  ('00000025-0000-4000-8000-000000000003', 'b3@example.com', '{"handle": "alice_bob"}'),
  ('00000025-0000-4000-8000-000000000004', 'b4@example.com', '{"handle": "BOB2"}');
do $$
declare got text; page text[]; step record; after_r int; after_h text; after_i uuid; n int := 0;
begin
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  -- Bob_Builder (fixtures) starts with "bob" too; carol is private; "100% Bob" is a display name.
  select string_agg(s.handle, ',' order by s.ordinality) into got
  from public.search_profiles_ranked('%bob%', 'bob') with ordinality as s;
  if got is distinct from 'bob,BOB2,Bob_Builder,bobby,alice_bob' then raise exception 'FAIL: ranked order: %', got; end if;
  -- one row a page, after the previous row's (rank, handle, id): the same order, no repeat
  page := array[]::text[];
  loop
    select s.handle, s.handle_lower, s.id,
           case when s.handle_lower = 'bob' then 0 when starts_with(s.handle_lower, 'bob') then 1 else 2 end as rank
      into step
    from public.search_profiles_ranked('%bob%', 'bob', after_r, after_h, after_i, 1) s;
    exit when step.id is null;
    page := page || step.handle::text;
    after_r := step.rank; after_h := step.handle_lower; after_i := step.id;
    n := n + 1;
    if n > 10 then raise exception 'FAIL: paging does not end: %', page; end if;
  end loop;
  if array_to_string(page, ',') <> got then raise exception 'FAIL: paged %, whole %', page, got; end if;
  perform pg_temp.logout();
  -- anon may not call it (the gateway asks for a signed-in viewer)
  perform pg_temp.login(null);
  begin
    perform public.search_profiles_ranked('%bob%', 'bob');
    raise exception 'FAIL: anon searched';
  exception when insufficient_privilege then null;
  end;
  perform pg_temp.logout();
end $$;

rollback;
