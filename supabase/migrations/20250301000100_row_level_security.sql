-- social-gateway schema, part 2: privileges and row-level security.
--
-- Two gates, in order: column/table grants (a missing privilege is 42501 before any policy
-- runs), then policies. Clients can never write the counters (no UPDATE grant on them); only
-- the SECURITY DEFINER trigger does.

alter table public.profiles enable row level security;
alter table public.follows  enable row level security;

revoke all on public.profiles, public.follows from anon, authenticated;
grant select on public.profiles, public.follows to anon, authenticated;
grant insert (id, handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style, is_public)
  on public.profiles to authenticated;
grant update (handle, display_name, bio, photo_url, home_gym, climbing_since, favorite_style, is_public)
  on public.profiles to authenticated;
grant insert (follower_id, followee_id) on public.follows to authenticated;
grant update (deleted_at)               on public.follows to authenticated;

-- Public profiles are readable by everyone, private ones only by their owner.
create policy profiles_read on public.profiles for select to anon, authenticated
  using (is_public or id = (select auth.uid()));
create policy profiles_insert_own on public.profiles for insert to authenticated
  with check (id = (select auth.uid()));
-- Only the owner updates a profile.
create policy profiles_update_own on public.profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- Active follows are readable by everyone; the follower also sees their own soft-deleted rows
-- (the restore path of a re-follow needs them).
create policy follows_read on public.follows for select to anon, authenticated
  using (deleted_at is null or follower_id = (select auth.uid()));
-- Follows are created and removed only by the follower.
create policy follows_insert_own on public.follows for insert to authenticated
  with check (follower_id = (select auth.uid()) and deleted_at is null);
create policy follows_update_own on public.follows for update to authenticated
  using (follower_id = (select auth.uid())) with check (follower_id = (select auth.uid()));
