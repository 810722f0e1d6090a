-- social-gateway schema, part 12: follow pages that carry the caller's follow state toward each
-- listed profile (issue #17: at most 3 sequential round trips for a follower graph).
--
-- A follower graph asks `viewerIsFollowing` of every profile it lists. With follow_pages and
-- active_follows apart, each level of the graph cost two waves: its pages, then the states of
-- the profiles on them. Here both come in one: for each row of follow_pages, whether the caller
-- follows the profile on the other end and whether it follows the caller, each one probe of
-- the (follower_id, followee_id) unique index. follow_pages itself is unchanged (older gateways
-- keep calling it). Invoker, like follow_pages: the probes read follows under its RLS, which
-- lets the caller see an active follow between two profiles visible to them, and both are here
-- (the caller is visible to themselves; the listed profile passed follow_pages' visibility).
-- Anonymous callers get false for both. JIT off for the same reason as follow_pages (000400).
create or replace function public.follow_pages_with_states(requests jsonb)
returns table (
  request_index int, total_count int, follow_id uuid, follower_id uuid, followee_id uuid,
  follow_created_us bigint, profile jsonb, viewer_follows boolean, follows_viewer boolean
)
language sql stable security invoker set search_path = '' set jit = off as $$
  select pg.request_index, pg.total_count, pg.follow_id, pg.follower_id, pg.followee_id,
         pg.follow_created_us, pg.profile,
         exists (select 1 from public.follows v
                 where v.follower_id = (select auth.uid()) and v.followee_id = (pg.profile ->> 'id')::uuid
                   and v.deleted_at is null),
         exists (select 1 from public.follows v
                 where v.follower_id = (pg.profile ->> 'id')::uuid and v.followee_id = (select auth.uid())
                   and v.deleted_at is null)
  from public.follow_pages(requests) pg
$$;
revoke execute on function public.follow_pages_with_states(jsonb) from public;
grant execute on function public.follow_pages_with_states(jsonb) to anon, authenticated;
