-- follows: only the follower creates and removes a follow; the functions' rules.
\set ON_ERROR_STOP 1

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);

-- A user cannot follow on another's behalf, nor touch another's follow.
do $$ begin
  begin
    insert into public.follows (follower_id, followee_id)
    values ('b0b00000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000004');
    raise exception 'FAIL: alice created a follow for bob';
  exception when insufficient_privilege then null;
  end;
  begin
    delete from public.follows;
    raise exception 'FAIL: clients must not hard-delete follows';
  exception when insufficient_privilege then null;
  end;
end $$;

-- follow_profile / unfollow_profile / toggle_follow return the state and both profiles.
do $$
declare r jsonb; first_created timestamptz;
begin
  r := public.follow_profile('b0b00000-0000-4000-8000-000000000002');
  if not (r ->> 'is_following')::boolean then raise exception 'FAIL: follow'; end if;
  if (r -> 'followee' ->> 'follower_count')::int <> 1 or (r -> 'follower' ->> 'following_count')::int <> 1 then
    raise exception 'FAIL: counters after follow: %', r;
  end if;
  select created_at into first_created from public.follows
  where follower_id = 'a11ce000-0000-4000-8000-000000000001' and followee_id = 'b0b00000-0000-4000-8000-000000000002';
  r := public.follow_profile('b0b00000-0000-4000-8000-000000000002');   -- again: no-op
  if (r -> 'followee' ->> 'follower_count')::int <> 1 then raise exception 'FAIL: double follow counted'; end if;
  r := public.unfollow_profile('b0b00000-0000-4000-8000-000000000002');
  if (r ->> 'is_following')::boolean or (r -> 'followee' ->> 'follower_count')::int <> 0 then
    raise exception 'FAIL: unfollow: %', r;
  end if;
  r := public.unfollow_profile('b0b00000-0000-4000-8000-000000000002');  -- again: no-op
  if (r -> 'followee' ->> 'follower_count')::int <> 0 then raise exception 'FAIL: double unfollow'; end if;
  perform pg_sleep(0.01);
  r := public.toggle_follow('b0b00000-0000-4000-8000-000000000002');     -- restore
  if not (r ->> 'is_following')::boolean or (r -> 'followee' ->> 'follower_count')::int <> 1 then
    raise exception 'FAIL: toggle restore: %', r;
  end if;
  if (select count(*) from public.follows) <> 1 then raise exception 'FAIL: restore must reuse the row'; end if;
  if (select created_at from public.follows) <> first_created then
    raise exception 'FAIL: a re-follow keeps the original created_at';
  end if;
end $$;

-- Self-follow, hidden and missing targets.
do $$ begin
  begin
    perform public.toggle_follow('a11ce000-0000-4000-8000-000000000001');
    raise exception 'FAIL: self-follow';
  exception when sqlstate 'PT400' then
    -- the condition only (migration 002100): the domain words it
    if sqlerrm <> 'cannot_follow_self' then raise exception 'FAIL: message %', sqlerrm; end if;
  end;
  -- carol is private: following her asks instead (migration 002300), and shows only her card;
  -- unfollowing cancels the request, so nothing of it stays for the tests after this one
  -- (each call its own statement: a check in the same statement would see the rows from before it)
  perform set_config('test.outcome', public.follow_profile('ca201000-0000-4000-8000-000000000003')::text, true);
  if (current_setting('test.outcome')::jsonb ->> 'request_status') is distinct from 'pending'
     or (current_setting('test.outcome')::jsonb -> 'followee' ->> 'card') is distinct from 'true'
     or exists (select 1 from public.follows where follower_id = 'a11ce000-0000-4000-8000-000000000001'
                and followee_id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: a follow of private carol did not ask: %', current_setting('test.outcome');
  end if;
  perform set_config('test.outcome', public.unfollow_profile('ca201000-0000-4000-8000-000000000003')::text, true);
  if (current_setting('test.outcome')::jsonb ->> 'request_status') is distinct from 'none'
     or exists (select 1 from public.follow_requests where target_id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: unfollow did not cancel the request to carol: %', current_setting('test.outcome');
  end if;
  begin
    perform public.follow_profile('eeeeeeee-0000-4000-8000-000000000000');
    raise exception 'FAIL: followed a missing profile';
  exception when sqlstate 'PT404' then null;
  end;
end $$;

-- dave follows alice and bob (for the page tests below).
select set_config('request.jwt.claims', '{"sub":"d0000000-0000-4000-8000-000000000004","role":"authenticated"}', false);
select public.follow_profile('a11ce000-0000-4000-8000-000000000001');
select public.follow_profile('b0b00000-0000-4000-8000-000000000002');
reset role;

-- carol (private) follows bob, as postgres to make the row without the visibility check.
insert into public.follows (follower_id, followee_id) values ('ca201000-0000-4000-8000-000000000003', 'b0b00000-0000-4000-8000-000000000002');

-- Anonymous callers cannot run the mutations at all.
set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  begin
    perform public.toggle_follow('b0b00000-0000-4000-8000-000000000002');
    raise exception 'FAIL: anon toggled';
  exception when insufficient_privilege then null;
  end;
end $$;

-- The reads below need a signed-in caller (anon may not call them: 20_rls_gateway_parity_test);
-- dave, a stranger to carol, sees what anon used to.
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"d0000000-0000-4000-8000-000000000004","role":"authenticated"}', false);

-- follow_pages: bob's followers as dave = alice and dave (carol hidden), total from the counter.
do $$
declare n int; total int;
begin
  select count(follow_id), max(total_count) into n, total
  from public.follow_pages('[{"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers","limit":10}]');
  if n <> 2 or total <> 3 then raise exception 'FAIL: follow_pages edges % total %', n, total; end if;
  -- two lists in one call, each page cut at limit + 1, an empty list still yields its row
  select count(*) into n from public.follow_pages('[
    {"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers","limit":0},
    {"owner":"d0000000-0000-4000-8000-000000000004","kind":"following","limit":5},
    {"owner":"a11ce000-0000-4000-8000-000000000001","kind":"following","limit":0}]');
  if n <> 1 + 2 + 1 then raise exception 'FAIL: batched follow_pages rows %', n; end if;
  select count(*) into n from public.follow_pages('[{"owner":"d0000000-0000-4000-8000-000000000004","kind":"followers"}]');
  if n <> 1 then raise exception 'FAIL: an empty list yields one row, got %', n; end if;
end $$;

-- Keyset: the page after the first edge holds the second, exactly.
do $$
declare first record; second record;
begin
  select * into first from public.follow_pages('[{"owner":"d0000000-0000-4000-8000-000000000004","kind":"following","limit":1}]') limit 1;
  select * into second from public.follow_pages(jsonb_build_array(jsonb_build_object(
    'owner', 'd0000000-0000-4000-8000-000000000004', 'kind', 'following', 'limit', 1,
    'cursor_us', first.follow_created_us, 'cursor_id', first.follow_id))) limit 1;
  if second.follow_id is null or second.follow_id = first.follow_id or second.follow_created_us > first.follow_created_us then
    raise exception 'FAIL: keyset page';
  end if;
end $$;

-- active_follows answers many pairs at once.
do $$ begin
  if (select count(*) from public.active_follows('[
      {"follower_id":"a11ce000-0000-4000-8000-000000000001","followee_id":"b0b00000-0000-4000-8000-000000000002"},
      {"follower_id":"b0b00000-0000-4000-8000-000000000002","followee_id":"a11ce000-0000-4000-8000-000000000001"},
      {"follower_id":"d0000000-0000-4000-8000-000000000004","followee_id":"a11ce000-0000-4000-8000-000000000001"}]')) <> 2 then
    raise exception 'FAIL: active_follows';
  end if;
end $$;

-- search_profiles: public only, escaped wildcards match literally, keyset order by lower(handle).
do $$
declare handles text;
begin
  select string_agg(handle, ',') into handles from public.search_profiles('%\_%');
  if handles <> 'alice_wonder,Bob_Builder,dave_dyno' then raise exception 'FAIL: search _ %', handles; end if;
  select string_agg(handle, ',') into handles from public.search_profiles('%100\%%');
  if handles <> 'Bob_Builder' then raise exception 'FAIL: search %% %', handles; end if;
  select string_agg(handle, ',') into handles from public.search_profiles('%car%');
  if handles is not null then raise exception 'FAIL: search found a private profile'; end if;
  select string_agg(handle, ',') into handles from public.search_profiles('%\_%', 'bob_builder',
    'b0b00000-0000-4000-8000-000000000002', 5);
  if handles <> 'dave_dyno' then raise exception 'FAIL: search keyset %', handles; end if;
end $$;
reset role;
