-- The follow limits inside the database (migration 20250301003000): a signed-in caller calling
-- the follow functions directly, as PostgREST lets them, meets the gateway's limits (100 follows
-- and requests an hour, 500 a day; lowered here through the operator's settings so the test
-- makes a few): PT429 with hint follows_per_hour / follows_per_day and retry_after. Only a call
-- that makes a follow or a new request counts. Every block fails on the schema before it.
\set ON_ERROR_STOP 1

insert into auth.users (id, email) values
  ('10000000-0000-4000-8000-000000000026', 'ivy@example.com'),
  ('20000000-0000-4000-8000-000000000026', 'jo@example.com'),
  ('30000000-0000-4000-8000-000000000026', 'kim@example.com'),
  ('40000000-0000-4000-8000-000000000026', 'lou@example.com'),
  ('50000000-0000-4000-8000-000000000026', 'max@example.com');
update public.profiles set is_public = false where id = '50000000-0000-4000-8000-000000000026';

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
end $$;

-- The hint and retry_after of a call's PT429, or null when it succeeds.
create function pg_temp.refusal(call text) returns text language plpgsql as $$
declare
  hint text;
  detail text;
begin
  execute call;
  return null;
exception when sqlstate 'PT429' then
  get stacked diagnostics hint = pg_exception_hint, detail = pg_exception_detail;
  return hint || ' ' || detail;
end $$;

do $$
begin
  -- The limits, as the gateway's FollowLimits (the Swift test compares them with the constants).
  if social_private.follows_per_hour() <> 100 or social_private.follows_per_day() <> 500 then
    raise exception 'FAIL: the limits are % an hour and % a day', social_private.follows_per_hour(), social_private.follows_per_day();
  end if;
end $$;

do $$
declare
  ivy constant uuid := '10000000-0000-4000-8000-000000000026';
  jo constant uuid := '20000000-0000-4000-8000-000000000026';
  kim constant uuid := '30000000-0000-4000-8000-000000000026';
  lou constant uuid := '40000000-0000-4000-8000-000000000026';
  max_ constant uuid := '50000000-0000-4000-8000-000000000026';
  refused text;
  seconds int;
begin
  perform set_config('social_gateway.follows_per_hour', '3', true);
  perform pg_temp.login(ivy);
  -- two follows and a request to a private profile: three made, all counted
  perform public.follow_profile(jo);
  perform public.toggle_follow(kim);
  if (public.follow_profile(max_) ->> 'request_status') <> 'pending' then raise exception 'FAIL: no request to max'; end if;
  -- free: following one already followed, asking again while pending, unfollowing, cancelling
  if pg_temp.refusal(format('select public.follow_profile(%L)', jo)) is not null then
    raise exception 'FAIL: following one already followed was counted';
  end if;
  if pg_temp.refusal(format('select public.follow_profile(%L)', max_)) is not null then
    raise exception 'FAIL: a request already pending was counted';
  end if;
  perform public.unfollow_profile(jo);
  perform public.toggle_follow(max_);  -- cancels the request
  -- the fourth follow of the hour is refused, with the seconds until the first one leaves it
  refused := pg_temp.refusal(format('select public.follow_profile(%L)', lou));
  if refused is null or split_part(refused, ' ', 1) <> 'follows_per_hour' then
    raise exception 'FAIL: the fourth follow in an hour: %', refused;
  end if;
  seconds := split_part(split_part(refused, ' ', 2), '=', 2)::int;
  if split_part(refused, ' ', 2) not like 'retry_after=%' or seconds < 3500 or seconds > 3600 then
    raise exception 'FAIL: retry_after of %', refused;
  end if;
  -- so is a follow that follows an unfollow (toggling cannot go round the count), and a new request
  if split_part(coalesce(pg_temp.refusal(format('select public.toggle_follow(%L)', jo)), ''), ' ', 1) <> 'follows_per_hour'
     or split_part(coalesce(pg_temp.refusal(format('select public.follow_profile(%L)', max_)), ''), ' ', 1) <> 'follows_per_hour' then
    raise exception 'FAIL: a refollow or a new request passed the hourly limit';
  end if;
  -- nothing was made by the refused calls
  if exists (select 1 from public.follows where follower_id = ivy and followee_id in (jo, lou) and deleted_at is null)
     or exists (select 1 from public.follow_requests where requester_id = ivy and target_id = max_) then
    raise exception 'FAIL: a refused call left a follow or a request';
  end if;
  -- another caller has a count of their own
  perform pg_temp.login(jo);
  if pg_temp.refusal(format('select public.follow_profile(%L)', lou)) is not null then
    raise exception 'FAIL: jo was refused for ivy''s follows';
  end if;
  -- the events are the functions' alone
  begin
    perform count(*) from social_private.follow_events;
    raise exception 'FAIL: a caller read the follow events';
  exception when insufficient_privilege then null;
  end;
end $$;

do $$
declare
  kim constant uuid := '30000000-0000-4000-8000-000000000026';
  lou constant uuid := '40000000-0000-4000-8000-000000000026';
  jo constant uuid := '20000000-0000-4000-8000-000000000026';
  ivy constant uuid := '10000000-0000-4000-8000-000000000026';
  refused text;
begin
  -- the daily limit, counted over 24 hours: two follows of yesterday evening and one now
  insert into social_private.follow_events (follower_id, made_at) values
    (kim, clock_timestamp() - interval '20 hours'), (kim, clock_timestamp() - interval '19 hours'),
    (kim, clock_timestamp() - interval '30 hours');
  perform set_config('social_gateway.follows_per_day', '3', true);
  perform pg_temp.login(kim);
  perform public.follow_profile(lou);
  refused := pg_temp.refusal(format('select public.follow_profile(%L)', jo));
  if refused is null or split_part(refused, ' ', 1) <> 'follows_per_day'
     or split_part(split_part(refused, ' ', 2), '=', 2)::int not between 14000 and 14400 then
    raise exception 'FAIL: the fourth follow in a day: %', refused;
  end if;
  reset role;
  -- the event older than a day was deleted as the next was counted
  if exists (select 1 from social_private.follow_events where follower_id = kim and made_at < clock_timestamp() - interval '1 day') then
    raise exception 'FAIL: events older than a day are kept';
  end if;
  -- 0 lifts a limit (the load scripts' setting)
  perform set_config('social_gateway.follows_per_day', '0', true);
  perform pg_temp.login(kim);
  if pg_temp.refusal(format('select public.follow_profile(%L)', ivy)) is not null then
    raise exception 'FAIL: follows_per_day = 0 still limits';
  end if;
end $$;
