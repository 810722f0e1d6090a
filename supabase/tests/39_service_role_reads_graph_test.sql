-- service_role reads the follow graph unfiltered (migration 20250301003900, issue 53): every
-- profile, private ones included, every active follow, every block and pending request, as the
-- PostgreSQL store's memory fills read them. In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;
do $$
begin
  assert has_table_privilege('service_role', 'public.profiles', 'select'), 'service_role reads profiles';
  assert has_table_privilege('service_role', 'public.follows', 'select'), 'service_role reads follows';
  assert has_table_privilege('service_role', 'public.blocks', 'select'), 'service_role reads blocks';
  assert has_table_privilege('service_role', 'public.follow_requests', 'select'), 'service_role reads follow_requests';
end $$;
-- carol is private (fixtures): anon sees her not, service_role does.
set local role anon;
do $$ begin
  assert (select count(*) from public.profiles where id = 'ca201000-0000-4000-8000-000000000003') = 0, 'anon: carol hidden';
end $$;
reset role;
set local role service_role;
do $$ begin
  assert (select count(*) from public.profiles where id = 'ca201000-0000-4000-8000-000000000003') = 1, 'service_role: carol read';
  assert (select count(*) from public.follows where deleted_at is null) > 0, 'service_role: follows read';
end $$;
reset role;
rollback;
