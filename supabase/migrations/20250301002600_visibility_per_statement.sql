-- social-gateway schema, part 26: the visibility rule at the cost of a statement, not of a row
-- (issue 41).
--
-- 002300 put the rule in every policy as `public.viewer_sees(x.id, x.is_public)`: a SECURITY
-- DEFINER SQL function, which PostgreSQL never inlines and plans anew in every statement that
-- calls it, so each row a policy looked at cost a function call of about 30 us (measured:
-- `select count(*) from profiles` as a signed-in viewer, 1,003 rows, 31 ms). follows_read called it
-- twice per follows row and once more through the profiles policy of each of its two sub-selects:
-- a page of ten followers cost 20-30 ms of PostgreSQL CPU, and `scripts/load-test` (STORE=postgres)
-- served 87 random profile cards a second where the embedded store served 4,900.
--
-- What changes: the rule's two lookups (the private profiles the viewer follows, and the profiles
-- blocked either way) are made once per statement, each by a PL/pgSQL definer function (its plan
-- kept for the session) whose uncorrelated sub-select PostgreSQL runs once as an InitPlan; a row
-- then costs two array probes. The same statement, 1 ms instead of 31.
--
--   1. social_private.viewer_private_followees() and social_private.viewer_block_peers().
--   2. profiles_read: the rule spelled out over them; it says what viewer_sees says.
--   3. Every other policy that tested viewer_sees on a related profile now reads that profile
--      in its sub-select and lets profiles_read (which RLS applies there) decide: one rule, in
--      one policy.
--   4. viewer_sees stays, for the definer functions that RLS does not filter (cards, the follow
--      functions); it becomes PL/pgSQL, so its plan is kept for the session too.
--
-- Nothing a caller can see changes: supabase/tests (02, 03, 05, 06, 14-17, 20, 23) say so.

-- ============ 1. the viewer's two lists ============
-- In social_private, which PostgREST does not expose and anon has no usage on: the blockers'
-- list is not the caller's to read in bulk. Policies reach them by oid, so anon and
-- authenticated only need EXECUTE.
create or replace function social_private.viewer_private_followees() returns uuid[]
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select coalesce(array_agg(f.followee_id), '{}')
          from public.follows f join public.profiles p on p.id = f.followee_id
          where f.follower_id = (select auth.uid()) and f.deleted_at is null and not p.is_public);
end $$;
revoke execute on function social_private.viewer_private_followees() from public;
grant execute on function social_private.viewer_private_followees() to anon, authenticated;

create or replace function social_private.viewer_block_peers() returns uuid[]
language plpgsql stable security definer set search_path = '' as $$
begin
  return (select coalesce(array_agg(case when b.blocker_id = (select auth.uid()) then b.blocked_id else b.blocker_id end), '{}')
          from public.blocks b
          where b.blocker_id = (select auth.uid()) or b.blocked_id = (select auth.uid()));
end $$;
revoke execute on function social_private.viewer_block_peers() from public;
grant execute on function social_private.viewer_block_peers() to anon, authenticated;

-- ============ 2. profiles_read ============
-- viewer_sees, row by row: anonymous -> public only (auth.uid() is null, both lists empty);
-- yourself -> yes; blocked either way -> no; else public, or a private profile you follow.
-- The `::uuid[]` makes each `any` an array probe of the InitPlan's value, not a sub-select per row.
alter policy profiles_read on public.profiles
  using ((is_public or id = (select auth.uid())
          or id = any ((select social_private.viewer_private_followees())::uuid[]))
         and not id = any ((select social_private.viewer_block_peers())::uuid[]));

-- ============ 3. the related profile decides ============
alter policy follows_read on public.follows
  using (
    deleted_at is null
    and exists (select 1 from public.profiles p where p.id = follows.follower_id)
    and exists (select 1 from public.profiles p where p.id = follows.followee_id));
alter policy posts_read on public.posts
  using (exists (select 1 from public.profiles a where a.id = posts.author_id));
alter policy post_likes_read on public.post_likes
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = post_likes.post_id)
         and exists (select 1 from public.profiles w where w.id = post_likes.profile_id));
alter policy post_likes_insert_own on public.post_likes
  with check (
    profile_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = post_likes.post_id));
alter policy comments_read on public.comments
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = comments.post_id)
         and exists (select 1 from public.profiles w where w.id = comments.author_id));
alter policy comments_insert_own on public.comments
  with check (
    author_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = comments.post_id));
alter policy stories_read on public.stories
  using (
    expires_at > now()
    and exists (select 1 from public.profiles a where a.id = stories.author_id));

-- ============ 4. viewer_sees, planned once per session ============
create or replace function public.viewer_sees(target uuid, target_public boolean) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then return coalesce(target_public, false); end if;
  if target = me then return true; end if;
  if exists (select 1 from public.blocks b
             where (b.blocker_id = me and b.blocked_id = target) or (b.blocker_id = target and b.blocked_id = me)) then
    return false;
  end if;
  return coalesce(target_public, false) or exists (
    select 1 from public.follows f where f.follower_id = me and f.followee_id = target and f.deleted_at is null);
end $$;
