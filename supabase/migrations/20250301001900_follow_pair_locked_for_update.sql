-- social-gateway schema, part 20: a follow mutation locks its pair's profile rows FOR UPDATE.
--
-- lock_follow_pair (20250301000200) took the two rows FOR NO KEY UPDATE, then the counter
-- trigger (follows_maintain_counts) updated them. Every UPDATE of profiles takes the row's
-- strongest lock (20250301001300 explains why: profiles_touch makes PostgreSQL count the
-- generated key column handle_lower as updated), so each toggle upgraded its own lock in
-- mid-transaction, and an upgrade can deadlock: a second toggle of a pair sharing the row
-- queues on it (holding the row's tuple lock, its place in line) waiting for the first, and
-- the first's counter update then waits for that tuple lock. scripts/test-supabase-sql's
-- concurrent requests met it once in CI; a pgbench run of the same mix shows it about once a
-- minute (toggles of dave->bob and alice->bob, likes and comments holding FOR KEY SHARE on the
-- same rows):
--   ERROR:  deadlock detected
--   Process 14668 waits for ShareLock on transaction 45703; blocked by process 14667.
--   Process 14667 waits for AccessExclusiveLock on tuple (55,67) of relation 16431 (profiles);
--   blocked by process 14668.
--   14668 CONTEXT: lock_follow_pair ... for no key update
--   14667 CONTEXT: update public.profiles set follower_count = ... (follows_maintain_counts)
--
-- Taking FOR UPDATE at once removes the upgrade: the toggle already holds what its counter
-- update needs, as posts_lock_author does for a new post. The order is unchanged (both rows, by
-- id, before anything else), and nothing waits longer than before: the counter update took this
-- lock anyway, a few statements later (in that pgbench mix, 20,800-22,300 follow toggles a
-- minute went through with this, 12,500-12,600 without). Same signature, so follow_check, follow_profile,
-- unfollow_profile and toggle_follow pick it up unchanged.
create or replace function social_private.lock_follow_pair(a uuid, b uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform 1 from public.profiles where id in (a, b) order by id for update;
end $$;
revoke execute on function social_private.lock_follow_pair(uuid, uuid) from public;
grant execute on function social_private.lock_follow_pair(uuid, uuid) to authenticated;
