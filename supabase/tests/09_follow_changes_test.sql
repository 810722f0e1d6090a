-- follow_changes (migration 20250301000800): the caller's own follows changed since a time,
-- undone ones included, in change order, keyset-paged; nobody else's; anon may not call it.
\set ON_ERROR_STOP 1

do $$
declare
  alice constant uuid := 'a11ce000-0000-4000-8000-000000000001';
  dave constant uuid := 'd0000000-0000-4000-8000-000000000004';
  -- now(): the time this transaction's changes carry; one microsecond before it
  start_us bigint := (extract(epoch from now()) * 1000000)::bigint - 1;
  first_page record; n int; deleted int;
begin
  set local role authenticated;
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  -- alice's follow of dave: made before, now undone
  perform public.unfollow_profile(dave);
  select count(*), count(*) filter (where c.deleted_at is not null) into n, deleted
  from public.follow_changes(start_us, null, null, 100) c;
  if n <> 1 or deleted <> 1 then raise exception 'FAIL: alice''s changes since start: % rows, % undone', n, deleted; end if;
  -- every row is alice's, soft-deleted ones and those towards hidden carol included
  if exists (select 1 from public.follow_changes(0, null, null, 100) c where c.follower_id <> alice) then
    raise exception 'FAIL: follow_changes returned someone else''s follow';
  end if;
  if not exists (select 1 from public.follow_changes(0, null, null, 100) c
                 where c.followee_id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: alice''s (undone) follow of hidden carol is missing from her sync';
  end if;
  -- paging by (updated_at, id): page 1 of size 1, then after it, covers all without repeats
  select * into first_page from public.follow_changes(0, null, null, 1);
  if (select count(*) from public.follow_changes(
        0, (extract(epoch from first_page.updated_at) * 1000000)::bigint, first_page.id, 100) c
      where c.id = first_page.id) <> 0 then
    raise exception 'FAIL: the page after the first repeats its row';
  end if;
  if 1 + (select count(*) from public.follow_changes(
            0, (extract(epoch from first_page.updated_at) * 1000000)::bigint, first_page.id, 100))
     <> (select count(*) from public.follow_changes(0, null, null, 100)) then
    raise exception 'FAIL: paging loses rows';
  end if;
  reset role;
  if has_function_privilege('anon', 'public.follow_changes(bigint, bigint, uuid, int)', 'EXECUTE') then
    raise exception 'FAIL: anon may call follow_changes';
  end if;
end $$;
