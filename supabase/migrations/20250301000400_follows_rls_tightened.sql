-- social-gateway schema, part 5: follows under the same visibility rule as the gateway's lists,
-- and writes to follows only through the functions.
--
-- A client holding only the anon key (and maybe a user's JWT) can call PostgREST directly, so
-- row-level security is the real boundary. Before this migration it was looser than the
-- gateway: `follows_read` let anyone read every active follow, including those of a private
-- profile the gateway hides, and `follows_insert_own`/`follows_update_own` let a signed-in user
-- insert or revive their own follow row without `follow_check` (so a stranger could follow a
-- private profile).
--
-- A new file rather than an edit of 20250301000100/000200: projects have already applied those,
-- and `supabase db push` never re-runs an applied version.

-- ============ reads: what the gateway's lists can show, no more ============
-- The gateway lists a follow only in the followers/following list of a profile the caller can
-- see (GetFollowers/GetFollowing answer NOT_FOUND otherwise), and only when the profile on the
-- other side is visible too (follow_pages joins it through profiles' RLS; the embedded store
-- filters on the same rule); soft-deleted rows are never listed. So a row is readable exactly
-- when it is active and both its profiles are visible to the caller: public, or the caller's.
-- The follower gets no exception for their own rows: a row towards a profile that went private
-- is in none of the gateway's lists, and the functions below no longer need the caller to read
-- soft-deleted rows (they run as the definer).
--
-- `exists` subqueries on profiles rather than a SECURITY DEFINER helper function: the follows
-- indexes still do the selecting, then each row costs a primary-key probe per profile, or, for
-- a large scan, the planner hashes the visible profiles once instead; a definer function is an
-- opaque call per row (on 200k follows / 5k profiles: reading 20 followers 0.5 ms either way,
-- follow_pages for 50 lists 9 ms against 6 ms before this migration, a full count 40 ms
-- against 1.1 s with the function). The subqueries run as the caller, so profiles' own policy
-- applies to them too and agrees; it cannot recurse, since no profiles policy reads follows.
-- `(select auth.uid())` is evaluated once per statement.
drop policy follows_read on public.follows;
create policy follows_read on public.follows for select to anon, authenticated
  using (
    deleted_at is null
    and exists (select 1 from public.profiles p
                where p.id = follows.follower_id and (p.is_public or p.id = (select auth.uid())))
    and exists (select 1 from public.profiles p
                where p.id = follows.followee_id and (p.is_public or p.id = (select auth.uid())))
  );

-- follow_pages plans its body afresh on every call, and the probes above raise its generic
-- estimate past jit_above_cost (178k against 15k before): Supabase leaves JIT on, and compiling
-- cost 60-70 ms per call for a 3 ms read. It reads a few hundred rows by index; JIT never pays.
alter function public.follow_pages(jsonb) set jit = off;

-- ============ writes: only through follow_profile / unfollow_profile / toggle_follow ============
drop policy follows_insert_own on public.follows;
drop policy follows_update_own on public.follows;
-- Revoking the table privileges also revokes the column grants of 20250301000100.
revoke all on public.follows from anon, authenticated;
grant select on public.follows to anon, authenticated;

-- The shared checks, now explicit about visibility: called from the SECURITY DEFINER
-- mutations below they run as the table owner, whom RLS does not filter. Called directly
-- (they stay invoker), RLS applies as well and agrees.
create or replace function public.follow_check(target uuid) returns uuid
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'You must be logged in to follow users' using errcode = 'PT401', hint = 'authentication_required';
  end if;
  if me = target then
    raise exception 'You cannot follow yourself' using errcode = 'PT400', hint = 'cannot_follow_self';
  end if;
  -- the target must be visible to the caller (a private profile is "not found" to strangers)
  if not exists (select 1 from public.profiles where id = target and (is_public or id = me))
     or not exists (select 1 from public.profiles where id = me) then
    raise exception 'Profile not found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  perform social_private.lock_follow_pair(me, target);
  return me;
end $$;

-- The state after a mutation plus both profiles with their fresh counters, each null when the
-- caller (auth.uid(), not the `me` argument) cannot see it.
create or replace function public.follow_outcome(me uuid, target uuid) returns jsonb
language sql stable security invoker set search_path = '' as $$
  select jsonb_build_object(
    'is_following', exists (select 1 from public.follows f
                            where f.follower_id = me and f.followee_id = target and f.deleted_at is null),
    'follower', (select public.profile_json(p) from public.profiles p
                 where p.id = me and (p.is_public or p.id = (select auth.uid()))),
    'followee', (select public.profile_json(p) from public.profiles p
                 where p.id = target and (p.is_public or p.id = (select auth.uid()))))
$$;

-- The mutations run as the definer (the table owner) now that clients hold no INSERT/UPDATE on
-- follows. Who acts is auth.uid() (in follow_check), never an argument; the bodies are those
-- of 20250301000200.
create or replace function public.follow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update set deleted_at = null
    where f.deleted_at is not null;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.unfollow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  update public.follows set deleted_at = now()
  where follower_id = me and followee_id = target and deleted_at is null;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.toggle_follow(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update
    set deleted_at = case when f.deleted_at is null then now() else null end;
  return public.follow_outcome(me, target);
end $$;

-- `create or replace` keeps the grants of 20250301000200; restated so this file alone says
-- who may run the definer functions.
revoke execute on function
  public.follow_profile(uuid), public.unfollow_profile(uuid), public.toggle_follow(uuid)
  from public, anon;
grant execute on function
  public.follow_profile(uuid), public.unfollow_profile(uuid), public.toggle_follow(uuid)
  to authenticated;
