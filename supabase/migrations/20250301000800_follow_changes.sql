-- social-gateway schema, part 9: sync of the caller's own follows (seed 000 `fetchUpdatedSince`).
--
-- An offline-first client keeps whom it follows and asks for what changed since its last sync,
-- undone follows included with their deletion time, so it can apply unfollows. follows_read
-- (000400) hides soft-deleted rows and rows towards a profile that went private, so the
-- function runs as its definer and returns only rows whose follower is auth.uid(): the caller's
-- own rows, nothing of anyone else's. Ordered by (updated_at, id), keyset-paged: a follow that
-- changes while a client pages moves to the end rather than being skipped. Times go in as
-- microseconds since 1970 (exact, as follow_pages' cursors).
create index if not exists follows_follower_sync_idx on public.follows (follower_id, updated_at, id);

create or replace function public.follow_changes(since_us bigint, after_us bigint, after_id uuid, page_size int)
returns table (id uuid, follower_id uuid, followee_id uuid, created_at timestamptz, updated_at timestamptz,
               deleted_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select f.id, f.follower_id, f.followee_id, f.created_at, f.updated_at, f.deleted_at
  from public.follows f
  where f.follower_id = (select auth.uid())
    and f.updated_at > timestamptz 'epoch' + since_us * interval '1 microsecond'
    and (after_us is null
         or (f.updated_at, f.id) > (timestamptz 'epoch' + after_us * interval '1 microsecond', after_id))
  order by f.updated_at, f.id
  limit least(greatest(page_size, 1), 101)
$$;
revoke execute on function public.follow_changes(bigint, bigint, uuid, int) from public;
grant execute on function public.follow_changes(bigint, bigint, uuid, int) to authenticated;
