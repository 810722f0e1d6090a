-- A follower can always remove their own follow, even of a profile that turned private
-- (migration 20250301000500); without the follow, the profile is a card and a follow asks
-- (migration 20250301002300).
-- State from 05: alice follows carol (private; the row was made as postgres before she went private).
\set ON_ERROR_STOP 1

do $$
declare
  alice constant uuid := 'a11ce000-0000-4000-8000-000000000001';
  carol constant uuid := 'ca201000-0000-4000-8000-000000000003';
  carol_followers int; alice_following int; outcome jsonb;
begin
  if not exists (select 1 from public.follows where follower_id = alice and followee_id = carol and deleted_at is null) then
    raise exception 'FAIL: setup: alice should follow carol';
  end if;
  select follower_count into carol_followers from public.profiles where id = carol;
  select following_count into alice_following from public.profiles where id = alice;

  set local role authenticated;
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  -- alice follows carol, so she sees all of her (migration 002300): following again is a no-op
  outcome := public.follow_profile(carol);
  if not (outcome ->> 'is_following')::boolean or outcome -> 'followee' ->> 'card' is not null then
    raise exception 'FAIL: alice followed hidden carol again: %', outcome;
  end if;
  -- unfollowing works; carol is then only a card to alice: no bio
  outcome := public.unfollow_profile(carol);
  if (outcome ->> 'is_following')::boolean or (outcome -> 'followee' ->> 'card') is distinct from 'true'
     or outcome -> 'followee' ->> 'bio' is not null then
    raise exception 'FAIL: unfollow of private carol answered %', outcome;
  end if;
  -- a second unfollow changes nothing (no follow, no request)
  outcome := public.unfollow_profile(carol);
  if (outcome ->> 'request_status') is distinct from 'none' or (outcome ->> 'changed')::boolean then
    raise exception 'FAIL: a second unfollow of private carol answered %', outcome;
  end if;
  reset role;

  if exists (select 1 from public.follows where follower_id = alice and followee_id = carol and deleted_at is null) then
    raise exception 'FAIL: the follow of carol is still active';
  end if;
  if (select follower_count from public.profiles where id = carol) <> carol_followers - 1
     or (select following_count from public.profiles where id = alice) <> alice_following - 1 then
    raise exception 'FAIL: counters after the unfollow of hidden carol';
  end if;

  -- toggle removes such a follow too
  update public.follows set deleted_at = null where follower_id = alice and followee_id = carol;
  set local role authenticated;
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  outcome := public.toggle_follow(carol);
  if (outcome ->> 'is_following')::boolean then raise exception 'FAIL: toggle of hidden carol answered %', outcome; end if;
  reset role;
  if exists (select 1 from public.follows where follower_id = alice and followee_id = carol and deleted_at is null) then
    raise exception 'FAIL: the toggle left the follow of carol active';
  end if;
  if (select follower_count from public.profiles where id = carol) <> carol_followers - 1 then
    raise exception 'FAIL: counters after the toggle of hidden carol';
  end if;
end $$;
