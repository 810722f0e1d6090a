-- The visibility rule written once (migration 20250301003300): social_private.sees_profile is
-- the rule's only text, the planner inlines it, every reader agrees with it, and an approved
-- follower of a private profile can take back a like.
\set ON_ERROR_STOP 1

-- ============ the rule, as a truth table ============
do $$
declare
  v constant uuid := '11110000-0000-4000-8000-000000000026';
  p constant uuid := '22220000-0000-4000-8000-000000000026';
begin
  -- (viewer, follows, peers, target, public) -> sees
  if not social_private.sees_profile(v, '{}', '{}', v, false) then raise exception 'FAIL: the owner sees a private self'; end if;
  if not social_private.sees_profile(v, '{}', '{}', p, true) then raise exception 'FAIL: a public profile is seen'; end if;
  if social_private.sees_profile(v, '{}', '{}', p, false) then raise exception 'FAIL: a stranger sees a private profile'; end if;
  if not social_private.sees_profile(v, array[p], '{}', p, false) then raise exception 'FAIL: a follower sees a private profile'; end if;
  if social_private.sees_profile(v, '{}', array[p], p, true) then raise exception 'FAIL: a public profile blocked either way is seen'; end if;
  if social_private.sees_profile(v, array[p], array[p], p, false) then raise exception 'FAIL: a block beats a follow'; end if;
  if not social_private.sees_profile(null, '{}', '{}', p, true) then raise exception 'FAIL: anon sees a public profile'; end if;
  -- a definite false, never null (callers negate it: profile_cards)
  if social_private.sees_profile(null, '{}', '{}', p, false) is distinct from false then
    raise exception 'FAIL: anon on a private profile is not false';
  end if;
end $$;

-- ============ it is inlinable, and inlined ============
do $$
declare
  f record;
  plan text;
begin
  select p.prolang = (select oid from pg_language where lanname = 'sql') as is_sql, p.prosecdef, p.proconfig, p.provolatile
    into f from pg_proc p where p.oid = 'social_private.sees_profile(uuid, uuid[], uuid[], uuid, boolean)'::regprocedure;
  if not f.is_sql or f.prosecdef or f.proconfig is not null or f.provolatile = 'v' then
    raise exception 'FAIL: sees_profile must be LANGUAGE sql, not a definer, no SET, not volatile (else not inlined): %', f;
  end if;
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  for plan in explain (verbose, costs off) select id from public.profiles loop
    if plan like '%sees_profile%' then raise exception 'FAIL: profiles_read calls the rule instead of inlining it: %', plan; end if;
  end loop;
  reset role;
end $$;

-- ============ its text is in one place ============
-- No policy and no function body but the rule's own spells it out (`is_public or ...`), and
-- every policy or body that reads the viewer's lists hands them to the rule. follow_check's
-- `is_public or id = me` is whether a follow may be made directly, not who sees a profile.
do $$
declare
  offenders text;
begin
  select string_agg(format('%I.%I', n.nspname, p.proname), ', ') into offenders
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname in ('public', 'social_private')
    and p.prosrc ~* 'is_public\s+or\s'
    and p.oid not in ('social_private.sees_profile(uuid, uuid[], uuid[], uuid, boolean)'::regprocedure,
                      'public.follow_check(uuid)'::regprocedure);
  if offenders is not null then
    raise exception 'FAIL: the visibility rule is spelled out in %: call social_private.sees_profile', offenders;
  end if;
  select string_agg(format('%s on %I.%I', policyname, schemaname, tablename), ', ') into offenders
  from pg_policies
  where schemaname = 'public' and (qual ~* 'is_public\s+or' or with_check ~* 'is_public\s+or');
  if offenders is not null then
    raise exception 'FAIL: the visibility rule is spelled out in the policies %: let profiles_read (the rule) decide', offenders;
  end if;
  select string_agg(format('%I.%I', n.nspname, p.proname), ', ') into offenders
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname in ('public', 'social_private')
    and p.prosrc ~ 'viewer_private_followees\(\)' and p.prosrc !~ 'sees_profile'
    and p.proname <> 'viewer_private_followees';
  if offenders is not null then
    raise exception 'FAIL: % read the viewer''s follows without the rule', offenders;
  end if;
end $$;

-- ============ every reader agrees with the rule ============
-- For every viewer (anonymous and each profile) and every profile: profiles_read shows the row
-- exactly when viewer_sees (the definer wrapper, one profile's rows as lists) says so; a
-- signed-in viewer gets a card of exactly the rest that is not blocked either way. State at this
-- point: tests 01-25's profiles, follows, requests and blocks, private and public ones.
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

do $$
declare
  viewer uuid;
  everyone uuid[] := array(select id from public.profiles order by id);
  by_policy uuid[];
  by_wrapper uuid[];
  carded uuid[];
  blocked uuid[];
  checked int := 0;
begin
  -- what makes the comparison worth it: a private profile with an approved follower, one
  -- without, and a block (of a public profile by a private one)
  if not exists (select 1 from public.follows f join public.profiles p on p.id = f.followee_id
                 where not p.is_public and f.deleted_at is null)
     or (select count(*) from public.profiles where not is_public) < 2
     or not exists (select 1 from public.blocks) then
    raise exception 'FAIL: the state of tests 01-25 no longer has the cases this test compares';
  end if;
  foreach viewer in array array_prepend(null::uuid, everyone) loop
    blocked := array(select case when b.blocker_id = viewer then b.blocked_id else b.blocker_id end
                     from public.blocks b where viewer in (b.blocker_id, b.blocked_id));
    perform pg_temp.login(viewer);
    by_policy := array(select id from public.profiles order by id);
    if viewer is not null then
      by_wrapper := array(select x from unnest(everyone) x
                          where public.viewer_sees(x, (select p.is_public from public.profiles p where p.id = x)) order by x);
      carded := array(select (c ->> 'id')::uuid from jsonb_array_elements(public.profile_cards(everyone)) c order by 1);
    end if;
    reset role;
    if viewer is null then
      by_wrapper := array(select id from public.profiles where is_public order by id);
      carded := '{}';
    end if;
    if by_policy is distinct from by_wrapper then
      raise exception 'FAIL: viewer % sees % through profiles_read but % through viewer_sees', viewer, by_policy, by_wrapper;
    end if;
    if viewer is not null and carded is distinct from array(
         select x from unnest(everyone) x where not x = any (by_policy) and not x = any (blocked) order by x) then
      raise exception 'FAIL: viewer % gets cards % (sees %, blocked %)', viewer, carded, by_policy, blocked;
    end if;
    checked := checked + 1;
  end loop;
  if checked <> cardinality(everyone) + 1 then raise exception 'FAIL: % viewers checked', checked; end if;
end $$;

-- ============ an approved follower of a private profile takes back a like ============
insert into auth.users (id, email) values
  ('a0000000-0000-4000-8000-000000000026', 'ada@example.com'),
  ('b0000000-0000-4000-8000-000000000026', 'ben@example.com');
update public.profiles set handle = 'ada_private' where id = 'a0000000-0000-4000-8000-000000000026';
update public.profiles set handle = 'ben_follows' where id = 'b0000000-0000-4000-8000-000000000026';
insert into public.follows (follower_id, followee_id) values ('b0000000-0000-4000-8000-000000000026', 'a0000000-0000-4000-8000-000000000026');
update public.profiles set is_public = false where id = 'a0000000-0000-4000-8000-000000000026';
insert into public.posts (id, author_id, content) values
  ('a0000026-0000-4000-8000-00000000beef', 'a0000000-0000-4000-8000-000000000026', 'for my followers');

do $$
declare
  post constant uuid := 'a0000026-0000-4000-8000-00000000beef';
  answer jsonb;
begin
  perform pg_temp.login('b0000000-0000-4000-8000-000000000026');
  answer := public.toggle_like(post);
  if answer ->> 'liked' <> 'true' or (answer ->> 'like_count')::int <> 1 then raise exception 'FAIL: ben likes: %', answer; end if;
  answer := public.toggle_like(post);  -- failed with 23505 before 003300
  if answer ->> 'liked' <> 'false' or (answer ->> 'like_count')::int <> 0 then raise exception 'FAIL: ben takes the like back: %', answer; end if;
  answer := public.set_like(post, true);
  answer := public.set_like(post, false);
  if answer ->> 'changed' <> 'true' or (answer ->> 'like_count')::int <> 0 then
    raise exception 'FAIL: set_like(false) by an approved follower: %', answer;
  end if;
  reset role;
end $$;
