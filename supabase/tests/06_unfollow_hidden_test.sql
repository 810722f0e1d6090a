-- A follower can always remove their own follow, even of a profile that turned private
-- (migration 20250301000500); following it, or unfollowing it without a follow, stays "not found".
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
  -- following her is still refused while she is hidden from alice
  begin
    perform public.follow_profile(carol);
    raise exception 'FAIL: alice followed hidden carol';
  exception when sqlstate 'PT404' then null;
  end;
  -- unfollowing works, and says nothing of carol's profile
  outcome := public.unfollow_profile(carol);
  if (outcome ->> 'is_following')::boolean or outcome -> 'followee' <> 'null'::jsonb then
    raise exception 'FAIL: unfollow of hidden carol answered %', outcome;
  end if;
  -- a second unfollow, now without a follow, is "not found" again: nothing about carol leaks
  begin
    perform public.unfollow_profile(carol);
    raise exception 'FAIL: a second unfollow of hidden carol succeeded';
  exception when sqlstate 'PT404' then null;
  end;
  -- and a toggle would be a follow: refused
  begin
    perform public.toggle_follow(carol);
    raise exception 'FAIL: alice toggled a follow of hidden carol on';
  exception when sqlstate 'PT404' then null;
  end;
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
