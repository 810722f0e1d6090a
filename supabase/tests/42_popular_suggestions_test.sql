-- Suggestions for a caller who follows nobody yet (migration 20250301004200, issue 54): the most
-- followed public profiles, most followers first then id, never the caller, a private profile, one
-- asked, or one across a block; a caller who follows anyone still gets friends of friends only.
-- In one transaction, rolled back (other tests' profiles may be suggested too: the checks are on
-- this test's own profiles and on the order).
\set ON_ERROR_STOP 1
begin;

insert into auth.users (id, email) values
  ('d1000000-0000-4000-8000-000000000042', 'new@example.com'),
  ('d2000000-0000-4000-8000-000000000042', 'star@example.com'),
  ('d3000000-0000-4000-8000-000000000042', 'mid@example.com'),
  ('d4000000-0000-4000-8000-000000000042', 'shy@example.com'),
  ('d5000000-0000-4000-8000-000000000042', 'rude@example.com'),
  ('d6000000-0000-4000-8000-000000000042', 'fan@example.com');
update public.profiles set handle = 'new_here' where id = 'd1000000-0000-4000-8000-000000000042';
update public.profiles set handle = 'star_42' where id = 'd2000000-0000-4000-8000-000000000042';
update public.profiles set handle = 'mid_42' where id = 'd3000000-0000-4000-8000-000000000042';
update public.profiles set handle = 'shy_42' where id = 'd4000000-0000-4000-8000-000000000042';
update public.profiles set handle = 'rude_42' where id = 'd5000000-0000-4000-8000-000000000042';
update public.profiles set handle = 'fan_42' where id = 'd6000000-0000-4000-8000-000000000042';
-- star is followed by mid, shy and fan; mid by fan; rude by star and mid (then rude blocks new_here);
-- shy (followed by fan, mid) turns private
insert into public.follows (follower_id, followee_id) values
  ('d3000000-0000-4000-8000-000000000042', 'd2000000-0000-4000-8000-000000000042'),
  ('d4000000-0000-4000-8000-000000000042', 'd2000000-0000-4000-8000-000000000042'),
  ('d6000000-0000-4000-8000-000000000042', 'd2000000-0000-4000-8000-000000000042'),
  ('d6000000-0000-4000-8000-000000000042', 'd3000000-0000-4000-8000-000000000042'),
  ('d2000000-0000-4000-8000-000000000042', 'd5000000-0000-4000-8000-000000000042'),
  ('d3000000-0000-4000-8000-000000000042', 'd5000000-0000-4000-8000-000000000042'),
  ('d6000000-0000-4000-8000-000000000042', 'd4000000-0000-4000-8000-000000000042'),
  ('d3000000-0000-4000-8000-000000000042', 'd4000000-0000-4000-8000-000000000042');
update public.profiles set is_public = false where id = 'd4000000-0000-4000-8000-000000000042';
insert into public.blocks (blocker_id, blocked_id) values ('d5000000-0000-4000-8000-000000000042', 'd1000000-0000-4000-8000-000000000042');

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
end $$;

do $$
declare
  new_here constant uuid := 'd1000000-0000-4000-8000-000000000042';
  handles text[];
  ordered boolean;
  total int;
begin
  perform pg_temp.login(new_here);
  select array_agg(s.profile ->> 'handle' order by n), min(s.total_count)
    into handles, total
    from public.suggested_profiles(50) with ordinality as s(total_count, profile, n);
  -- star (3 followers) before mid (1); never shy (private), rude (blocks new_here), nor new_here
  if array_position(handles, 'star_42') is null or array_position(handles, 'mid_42') is null
     or array_position(handles, 'star_42') > array_position(handles, 'mid_42') then
    raise exception 'FAIL: popular suggestions for a newcomer: %', handles;
  end if;
  if 'shy_42' = any (handles) or 'rude_42' = any (handles) or 'new_here' = any (handles) then
    raise exception 'FAIL: a private, blocking or own profile suggested: %', handles;
  end if;
  if total < 2 or total < cardinality(handles) then raise exception 'FAIL: total % for %', total, handles; end if;
  -- most followers first, then id
  select coalesce(bool_and(o.prev is null or o.prev >= o.cur), true) into ordered from (
    select (s.profile ->> 'follower_count')::int as cur,
           lag((s.profile ->> 'follower_count')::int) over (order by n) as prev
    from public.suggested_profiles(50) with ordinality as s(total_count, profile, n)) o;
  if not ordered then raise exception 'FAIL: not most followers first'; end if;
  reset role;

  -- following one profile: friends of friends only (fan follows star, mid and shy; star follows rude)
  insert into public.follows (follower_id, followee_id) values (new_here, 'd2000000-0000-4000-8000-000000000042');
  perform pg_temp.login(new_here);
  select array_agg(s.profile ->> 'handle') into handles from public.suggested_profiles(50) s;
  if handles is not null then raise exception 'FAIL: one who follows star (who follows only rude, blocked) got %', handles; end if;
  reset role;
end $$;
reset role;
rollback;
