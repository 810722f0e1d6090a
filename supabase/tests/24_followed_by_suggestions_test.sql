-- followed_by_viewer_following and suggested_profiles (migration 20250301002400): the caller's
-- follows who follow a profile, and friends of friends; active follows only, a path through a
-- private profile the caller follows counts (they see it, migration 002300), private profiles
-- never suggested, signed-in callers only.
\set ON_ERROR_STOP 1
-- In one transaction, rolled back: the users and follows made here must not change later checks.
begin;

-- eve, gina and hank join (public); alice = A, bob = B, carol = C (private), dave = D.
insert into auth.users (id, email) values
  ('e0000000-0000-4000-8000-000000000005', 'eve@example.com'),
  ('9100a000-0000-4000-8000-000000000006', 'gina@example.com'),
  ('f0000000-0000-4000-8000-000000000007', 'frank@example.com'),
  ('70000000-0000-4000-8000-000000000008', 'hank@example.com');
update public.profiles set handle = 'eve' where id = 'e0000000-0000-4000-8000-000000000005';
update public.profiles set handle = 'gina' where id = '9100a000-0000-4000-8000-000000000006';
update public.profiles set handle = 'frank' where id = 'f0000000-0000-4000-8000-000000000007';
update public.profiles set handle = 'hank' where id = '70000000-0000-4000-8000-000000000008';
-- Start from no follows at all, then make the graph as the table owner:
--   alice follows bob, dave, carol (private) and frank;
--   bob follows eve, gina, carol, alice and frank; dave follows eve and gina;
--   carol follows hank (a path through a private profile); hank follows gina;
--   frank followed eve, then unfollowed (a soft-deleted row).
delete from public.follows;
insert into public.follows (follower_id, followee_id) values
  ('a11ce000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002'),
  ('a11ce000-0000-4000-8000-000000000001', 'd0000000-0000-4000-8000-000000000004'),
  ('a11ce000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003'),
  ('a11ce000-0000-4000-8000-000000000001', 'f0000000-0000-4000-8000-000000000007'),
  ('b0b00000-0000-4000-8000-000000000002', 'e0000000-0000-4000-8000-000000000005'),
  ('b0b00000-0000-4000-8000-000000000002', '9100a000-0000-4000-8000-000000000006'),
  ('b0b00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003'),
  ('b0b00000-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001'),
  ('b0b00000-0000-4000-8000-000000000002', 'f0000000-0000-4000-8000-000000000007'),
  ('d0000000-0000-4000-8000-000000000004', 'e0000000-0000-4000-8000-000000000005'),
  ('d0000000-0000-4000-8000-000000000004', '9100a000-0000-4000-8000-000000000006'),
  ('ca201000-0000-4000-8000-000000000003', '70000000-0000-4000-8000-000000000008'),
  ('70000000-0000-4000-8000-000000000008', '9100a000-0000-4000-8000-000000000006'),
  ('f0000000-0000-4000-8000-000000000007', 'e0000000-0000-4000-8000-000000000005');
update public.follows set deleted_at = now()
where follower_id = 'f0000000-0000-4000-8000-000000000007' and followee_id = 'e0000000-0000-4000-8000-000000000005';

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare
  got text;
begin
  -- gina: bob and dave follow her (2); eve: bob and dave (frank's follow was undone): 2; hank:
  -- carol, private but followed by alice, so seen by her (1). Not carol (private), not alice
  -- herself, not frank (alice follows him already). Three in all.
  select string_agg((profile ->> 'handle') || '=' || total_count, ',') into got from public.suggested_profiles(20);
  if got is distinct from 'gina=3,eve=3,hank=3' then
    raise exception 'FAIL: alice''s suggestions are gina then eve (equal paths, gina more followed), got %', got;
  end if;
  select string_agg((profile ->> 'handle') || '=' || total_count, ',') into got from public.suggested_profiles(1);
  if got is distinct from 'gina=3' then
    raise exception 'FAIL: page_size 1 gives the first suggestion and counts them all, got %', got;
  end if;

  -- eve is followed by bob and dave among alice's follows (frank's follow was undone); equal
  -- follower counts, so by id: bob then dave.
  select string_agg(request_index || ':' || coalesce(profile ->> 'handle', '-') || '=' || total_count, ',') into got
  from public.followed_by_viewer_following(array['e0000000-0000-4000-8000-000000000005',
                                                  '70000000-0000-4000-8000-000000000008',
                                                  '9100a000-0000-4000-8000-000000000006']::uuid[], 10);
  if got is distinct from '0:Bob_Builder=2,0:dave_dyno=2,1:carol_creator=1,2:Bob_Builder=2,2:dave_dyno=2' then
    raise exception 'FAIL: followed-by of eve, hank (through private carol, whom alice follows) and gina, got %', got;
  end if;
  select string_agg(request_index || ':' || coalesce(profile ->> 'handle', '-') || '=' || total_count, ',') into got
  from public.followed_by_viewer_following(array['e0000000-0000-4000-8000-000000000005']::uuid[], 1);
  if got is distinct from '0:Bob_Builder=2' then
    raise exception 'FAIL: page_size 1 names one and counts both, got %', got;
  end if;
end $$;
reset role;

-- alice unfollows dave: he no longer counts for either function.
update public.follows set deleted_at = now()
where follower_id = 'a11ce000-0000-4000-8000-000000000001' and followee_id = 'd0000000-0000-4000-8000-000000000004';
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare
  got text;
begin
  select string_agg((profile ->> 'handle') || '=' || total_count, ',') into got from public.suggested_profiles(20);
  -- One path each now (bob's, and carol's to hank); gina stays first on her follower count, then
  -- eve, then hank. dave is not suggested: none of alice's follows follows him.
  if got is distinct from 'gina=3,eve=3,hank=3' then
    raise exception 'FAIL: after unfollowing dave, gina and eve stay through bob, got %', got;
  end if;
  select string_agg(coalesce(profile ->> 'handle', '-') || '=' || total_count, ',') into got
  from public.followed_by_viewer_following(array['e0000000-0000-4000-8000-000000000005']::uuid[], 10);
  if got is distinct from 'Bob_Builder=1' then
    raise exception 'FAIL: after unfollowing dave, eve is followed by bob alone, got %', got;
  end if;
end $$;
reset role;

-- carol (private) sees her own graph: hank is hers to follow, so gina is suggested through him.
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"ca201000-0000-4000-8000-000000000003","role":"authenticated"}', false);
do $$
declare
  got text;
begin
  select string_agg(profile ->> 'handle', ',') into got from public.suggested_profiles(20);
  if got is distinct from 'gina' then
    raise exception 'FAIL: carol''s suggestions are gina (through hank), got %', got;
  end if;
end $$;
reset role;

set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  perform public.suggested_profiles(20);
  raise exception 'FAIL: anon got suggestions';
exception when sqlstate 'PT401' then
  declare detail text;
  begin
    get stacked diagnostics detail = pg_exception_detail;
    if detail is distinct from 'action=view_suggestions' then
      raise exception 'FAIL: anon''s error names the action view_suggestions, got %', detail;
    end if;
  end;
end $$;
do $$ begin
  perform public.followed_by_viewer_following(array['e0000000-0000-4000-8000-000000000005']::uuid[], 10);
  raise exception 'FAIL: anon called followed_by_viewer_following';
exception when insufficient_privilege then null;
end $$;
reset role;
rollback;
