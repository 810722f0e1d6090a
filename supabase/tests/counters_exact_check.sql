-- After concurrent toggles: every stored counter equals the active rows it counts, and the
-- pairs toggled an even number of times ended as they started.
\set ON_ERROR_STOP 1
do $$
declare drift text;
begin
  select string_agg(p.handle, ', ') into drift from public.profiles p
  where p.follower_count <> (select count(*) from public.follows f where f.followee_id = p.id and f.deleted_at is null)
     or p.following_count <> (select count(*) from public.follows f where f.follower_id = p.id and f.deleted_at is null);
  if drift is not null then raise exception 'FAIL: counters drifted for %', drift; end if;
  if (select count(*) from public.follows) <> (select count(distinct (follower_id, followee_id)) from public.follows) then
    raise exception 'FAIL: duplicate pair rows';
  end if;
  -- every toggle was toggled back by the same client, so each pair ends where it started:
  -- alice->bob and dave->bob were active, bob->alice was not; no toggle was lost
  if (select count(*) from public.follows where deleted_at is null and (follower_id, followee_id) in (
        ('a11ce000-0000-4000-8000-000000000001'::uuid, 'b0b00000-0000-4000-8000-000000000002'::uuid),
        ('d0000000-0000-4000-8000-000000000004', 'b0b00000-0000-4000-8000-000000000002'))) <> 2
     or exists (select 1 from public.follows where deleted_at is null
                and follower_id = 'b0b00000-0000-4000-8000-000000000002' and followee_id = 'a11ce000-0000-4000-8000-000000000001') then
    raise exception 'FAIL: a concurrent toggle was lost';
  end if;
end $$;
