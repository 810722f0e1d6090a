-- follow_pages_with_states (migration 20250301001100): the rows of follow_pages, each with the
-- caller's follow state toward its profile, equal to what the follows table says; false for
-- anonymous callers.
\set ON_ERROR_STOP 1
-- In one transaction, rolled back: the follows made here must not change what later checks expect.
begin;

-- Fresh follows in both directions around alice, made as the table owner.
insert into public.follows (follower_id, followee_id) values
  ('a11ce000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004'),
  ('d0000000-0000-4000-8000-000000000004', 'b0b00000-0000-4000-8000-000000000002'),
  ('b0b00000-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001')
on conflict (follower_id, followee_id) do update set deleted_at = null;
-- One way only between alice and dave, so that the two states differ.
update public.follows set deleted_at = now()
where follower_id = 'd0000000-0000-4000-8000-000000000004' and followee_id = 'a11ce000-0000-4000-8000-000000000001';
create temporary table truth as
  select follower_id, followee_id from public.follows where deleted_at is null;
grant select on truth to authenticated, anon;

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare
  requests jsonb := '[{"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers","limit":10},
                      {"owner":"d0000000-0000-4000-8000-000000000004","kind":"following","limit":10},
                      {"owner":"b0b00000-0000-4000-8000-000000000002","kind":"following","limit":10}]';
  wrong integer;
begin
  if (select count(*) from public.follow_pages_with_states(requests))
     <> (select count(*) from public.follow_pages(requests)) then
    raise exception 'FAIL: follow_pages_with_states has the rows of follow_pages';
  end if;
  if not exists (select 1 from public.follow_pages_with_states(requests) where viewer_follows and not follows_viewer) then
    raise exception 'FAIL: alice follows dave, who does not follow her back, on bob''s followers page';
  end if;
  select count(*) into wrong from public.follow_pages_with_states(requests) s
  where s.follow_id is not null and (
    s.viewer_follows <> exists (select 1 from pg_temp.truth t
                                where t.follower_id = 'a11ce000-0000-4000-8000-000000000001' and t.followee_id = (s.profile ->> 'id')::uuid)
    or s.follows_viewer <> exists (select 1 from pg_temp.truth t
                                   where t.follower_id = (s.profile ->> 'id')::uuid and t.followee_id = 'a11ce000-0000-4000-8000-000000000001'));
  if wrong <> 0 then raise exception 'FAIL: % rows with a wrong follow state', wrong; end if;
end $$;
reset role;

set role anon;
select set_config('request.jwt.claims', '', false);
-- The gateway lists follows only for signed-in viewers (issue 37): anon may not call it.
do $$ begin
  perform public.follow_pages_with_states(
      '[{"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers","limit":10}]');
  raise exception 'FAIL: anon called follow_pages_with_states';
exception when insufficient_privilege then null;
end $$;
reset role;
rollback;
