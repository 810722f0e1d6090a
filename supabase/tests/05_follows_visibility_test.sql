-- follows read directly (GET /rest/v1/follows with the anon key and maybe a JWT) show no more
-- than the gateway's lists, and clients write follows only through the functions
-- (migration 20250301000400).
-- Ids start with their owner's initial: a(lice), b(ob), c(arol, private), d(ave); a pair
-- "a>b" is alice following bob. State from 03: a>b, d>a, d>b active, c>b made as postgres.
\set ON_ERROR_STOP 1

-- alice followed carol before carol went private (made as postgres: the functions refuse it now).
insert into public.follows (follower_id, followee_id)
values ('a11ce000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003');

-- Helpers run as the caller (invoker), dropped at the end.
create schema follows_test;
grant usage on schema follows_test to anon, authenticated;
-- The follows the caller can read directly, as sorted "follower>followee" initials.
create function follows_test.readable_pairs() returns text language sql stable as $$
  select coalesce(string_agg(left(follower_id::text, 1) || '>' || left(followee_id::text, 1), ','
                             order by follower_id, followee_id), '')
  from public.follows
$$;
-- Follows readable directly but in none of the gateway's lists (followers and following of
-- every profile the caller can see, through follow_pages), plus the other way round.
create function follows_test.beyond_lists() returns bigint language sql stable as $$
  with listed as (
    select l.follow_id from public.profiles o,
      lateral public.follow_pages(jsonb_build_array(
        jsonb_build_object('owner', o.id, 'kind', 'followers', 'limit', 100),
        jsonb_build_object('owner', o.id, 'kind', 'following', 'limit', 100))) l
    where l.follow_id is not null)
  select count(*) from (
    (select id from public.follows except select follow_id from listed)
    union all
    (select follow_id from listed except select id from public.follows)) d
$$;
-- Readable follows with a profile the caller cannot read.
create function follows_test.with_hidden_profile() returns bigint language sql stable as $$
  select count(*) from public.follows f
  where not exists (select 1 from public.profiles p where p.id = f.follower_id)
     or not exists (select 1 from public.profiles p where p.id = f.followee_id)
$$;
grant execute on all functions in schema follows_test to anon, authenticated;

-- alice follows dave, then unfollows: a soft-deleted row.
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
select public.follow_profile('d0000000-0000-4000-8000-000000000004');
select public.unfollow_profile('d0000000-0000-4000-8000-000000000004');
reset role;

-- 1. anon: no follow at all (the gateway's lists need a signed-in viewer, issue 37), and the
-- list functions are not anon's to call.
set role anon;
select set_config('request.jwt.claims', '', false);
do $$
begin
  if follows_test.readable_pairs() <> '' then
    raise exception 'FAIL: anon reads follows %', follows_test.readable_pairs();
  end if;
  begin
    perform public.follow_pages('[{"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers"}]');
    raise exception 'FAIL: anon called follow_pages';
  exception when insufficient_privilege then null;
  end;
  begin
    perform public.active_follows('[{"follower_id":"a11ce000-0000-4000-8000-000000000001","followee_id":"b0b00000-0000-4000-8000-000000000002"}]');
    raise exception 'FAIL: anon called active_follows';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;

-- 2. Signed in. dave and bob are strangers to carol: they read what anon used to (bob does not even see carol's
-- follow of him: his followers list does not show her).
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"d0000000-0000-4000-8000-000000000004","role":"authenticated"}', false);
do $$
declare n int; total int;
begin
  if follows_test.readable_pairs() <> 'a>b,d>a,d>b' then
    raise exception 'FAIL: dave reads follows %', follows_test.readable_pairs();
  end if;
  if follows_test.beyond_lists() <> 0 or follows_test.with_hidden_profile() <> 0 then
    raise exception 'FAIL: dave reads follows the gateway does not list';
  end if;
  -- follow_pages of the hidden owner: no edges (and total 0), not just a hidden owner row
  select count(follow_id), max(total_count) into n, total from public.follow_pages('[
    {"owner":"ca201000-0000-4000-8000-000000000003","kind":"followers"},
    {"owner":"ca201000-0000-4000-8000-000000000003","kind":"following"}]');
  if n <> 0 or total <> 0 then raise exception 'FAIL: follow_pages of a hidden owner: % edges, total %', n, total; end if;
  -- active_follows answers only for pairs the caller may see
  if exists (select 1 from public.active_follows('[
      {"follower_id":"ca201000-0000-4000-8000-000000000003","followee_id":"b0b00000-0000-4000-8000-000000000002"},
      {"follower_id":"a11ce000-0000-4000-8000-000000000001","followee_id":"ca201000-0000-4000-8000-000000000003"}]')) then
    raise exception 'FAIL: active_follows reveals a follow of the private profile';
  end if;
end $$;
select set_config('request.jwt.claims', '{"sub":"b0b00000-0000-4000-8000-000000000002","role":"authenticated"}', false);
do $$ begin
  if follows_test.readable_pairs() <> 'a>b,d>a,d>b' then
    raise exception 'FAIL: bob reads follows %', follows_test.readable_pairs();
  end if;
  if follows_test.beyond_lists() <> 0 then raise exception 'FAIL: bob reads follows the gateway does not list'; end if;
end $$;

-- carol, the private profile's owner, reads her own follows both ways.
select set_config('request.jwt.claims', '{"sub":"ca201000-0000-4000-8000-000000000003","role":"authenticated"}', false);
do $$ begin
  if follows_test.readable_pairs() <> 'a>b,a>c,c>b,d>a,d>b' then
    raise exception 'FAIL: carol reads follows %', follows_test.readable_pairs();
  end if;
  if follows_test.beyond_lists() <> 0 or follows_test.with_hidden_profile() <> 0 then
    raise exception 'FAIL: carol reads follows the gateway does not list';
  end if;
end $$;

-- alice follows carol, so carol is visible to her (an approved follower, migration 002300):
-- her follow of carol and carol's of bob are in alice's lists and readable; her soft-deleted
-- follow of dave is not (no list shows soft-deleted rows).
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$ begin
  if follows_test.readable_pairs() <> 'a>b,a>c,c>b,d>a,d>b' then
    raise exception 'FAIL: alice reads follows %', follows_test.readable_pairs();
  end if;
  if follows_test.beyond_lists() <> 0 or follows_test.with_hidden_profile() <> 0 then
    raise exception 'FAIL: alice reads follows the gateway does not list';
  end if;
end $$;

-- 3. No direct writes, not even of one's own follow: 42501 before any policy runs.
do $$ begin
  begin
    insert into public.follows (follower_id, followee_id)
    values ('a11ce000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004')
    on conflict do nothing;   -- the row exists: only the privilege can stop this statement
    raise exception 'FAIL: alice inserted her own follow directly';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.follows set deleted_at = null
    where follower_id = 'a11ce000-0000-4000-8000-000000000001' and followee_id = 'd0000000-0000-4000-8000-000000000004';
    raise exception 'FAIL: alice revived her follow directly';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.follows set deleted_at = now() where follower_id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: alice soft-deleted her follows directly';
  exception when insufficient_privilege then null;
  end;
end $$;

-- A stranger cannot follow a private profile: not directly, and the functions only ask
-- (migration 002300: a pending request, no follow), which the toggle back cancels.
select set_config('request.jwt.claims', '{"sub":"b0b00000-0000-4000-8000-000000000002","role":"authenticated"}', false);
do $$ begin
  begin
    insert into public.follows (follower_id, followee_id)
    values ('b0b00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003');
    raise exception 'FAIL: bob followed private carol directly';
  exception when insufficient_privilege then null;
  end;
  perform public.toggle_follow('ca201000-0000-4000-8000-000000000003');
  if exists (select 1 from public.follows where follower_id = 'b0b00000-0000-4000-8000-000000000002'
             and followee_id = 'ca201000-0000-4000-8000-000000000003')
     or not exists (select 1 from public.follow_requests where requester_id = 'b0b00000-0000-4000-8000-000000000002') then
    raise exception 'FAIL: bob''s toggle of private carol did not ask';
  end if;
end $$;
do $$ begin
  perform public.toggle_follow('ca201000-0000-4000-8000-000000000003');
  if exists (select 1 from public.follow_requests) then
    raise exception 'FAIL: bob''s second toggle did not cancel his request';
  end if;
end $$;
reset role;

set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  begin
    insert into public.follows (follower_id, followee_id)
    values ('a11ce000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002');
    raise exception 'FAIL: anon inserted a follow';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;

-- The functions still work, run as their definer: alice's toggle restores her soft-deleted
-- follow of dave (same row, original created_at) and the counters move with it.
do $$
declare row_before public.follows; dave_followers int; alice_following int;
begin
  select * into row_before from public.follows
  where follower_id = 'a11ce000-0000-4000-8000-000000000001' and followee_id = 'd0000000-0000-4000-8000-000000000004';
  if row_before.deleted_at is null then raise exception 'FAIL: setup: alice>dave should be soft-deleted'; end if;
  select follower_count into dave_followers from public.profiles where id = 'd0000000-0000-4000-8000-000000000004';
  select following_count into alice_following from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001';
  set local role authenticated;
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  if not (public.toggle_follow('d0000000-0000-4000-8000-000000000004') ->> 'is_following')::boolean then
    raise exception 'FAIL: toggle restore';
  end if;
  if follows_test.readable_pairs() <> 'a>b,a>c,a>d,c>b,d>a,d>b' then  -- a>c, c>b: alice follows carol
    raise exception 'FAIL: alice after the restore reads %', follows_test.readable_pairs();
  end if;
  reset role;
  if (select (id, created_at, deleted_at) from public.follows
      where follower_id = 'a11ce000-0000-4000-8000-000000000001' and followee_id = 'd0000000-0000-4000-8000-000000000004')
     is distinct from (row_before.id, row_before.created_at, null::timestamptz) then
    raise exception 'FAIL: the restore must reuse the row and keep created_at';
  end if;
  if (select follower_count from public.profiles where id = 'd0000000-0000-4000-8000-000000000004') <> dave_followers + 1
     or (select following_count from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <> alice_following + 1 then
    raise exception 'FAIL: counters after the restore';
  end if;
  if exists (select 1 from public.follows where follower_id = 'b0b00000-0000-4000-8000-000000000002'
                                            and followee_id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: a bob>carol row exists';
  end if;
end $$;

-- The gates themselves: no INSERT/UPDATE/DELETE on follows or any of its columns for the API
-- roles; the mutations are SECURITY DEFINER with an empty search_path, for authenticated only.
do $$
declare r record;
begin
  for r in select role, priv from unnest(array['anon', 'authenticated']) role,
                                  unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) priv loop
    if has_table_privilege(r.role, 'public.follows', r.priv)
       or (r.priv in ('INSERT', 'UPDATE') and has_any_column_privilege(r.role, 'public.follows', r.priv)) then
      raise exception 'FAIL: % holds % on follows', r.role, r.priv;
    end if;
  end loop;
  if exists (select 1 from pg_policy where polrelid = 'public.follows'::regclass and polcmd <> 'r') then
    raise exception 'FAIL: follows has a write policy';
  end if;
  for r in select p.oid::regprocedure as fn, p.prosecdef, p.proconfig from pg_proc p
           where p.oid in ('public.follow_profile(uuid)'::regprocedure, 'public.unfollow_profile(uuid)'::regprocedure,
                           'public.toggle_follow(uuid)'::regprocedure) loop
    if not r.prosecdef or r.proconfig is distinct from array['search_path=""'] then
      raise exception 'FAIL: % should be SECURITY DEFINER with search_path '''' (%)', r.fn, r.proconfig;
    end if;
    if has_function_privilege('anon', r.fn, 'EXECUTE') or not has_function_privilege('authenticated', r.fn, 'EXECUTE') then
      raise exception 'FAIL: execute grants of %', r.fn;
    end if;
  end loop;
end $$;

drop schema follows_test cascade;
