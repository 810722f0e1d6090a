-- social-gateway schema, part 31: the follow limits in the database (issue 51).
--
-- The gateway limits each viewer to 100 follows and follow requests an hour and 500 a day
-- (SocialDomain's FollowLimits), but a signed-in user holding the anon key could call
-- follow_profile or toggle_follow through PostgREST as often as they liked, and every follow
-- notifies its target: the database was looser than the gateway. Now the follow functions count
-- what they make in social_private.follow_events and refuse past either limit, with the error
-- the gateway's own limit gives (TOO_MANY_REQUESTS with retryAfter, through SchemaErrors):
--   PT429, hint `follows_per_hour` or `follows_per_day`, detail `retry_after=<seconds>` (the
--   seconds until the oldest counted follow leaves the window, at least 1).
-- As in the gateway, only a call that makes a follow or a new pending request counts:
-- following someone already followed, keeping a pending request, unfollowing and cancelling
-- are free. Every replica and every PostgREST client share one count here, where the gateway's
-- is per process.
--
-- A caller's calls are counted one at a time: the follow functions lock the pair's profile rows
-- FOR UPDATE first (lock_follow_pair), the caller's own among them, so concurrent calls cannot
-- all pass a count before any is recorded. A caller's events older than a day are deleted as the
-- next one is counted, so the table holds at most a day's worth (500) per caller.
--
-- The limits are functions (a test asserts that they equal FollowLimits.perHour and .perDay).
-- The operator may change them per database or role, as the gateway's FOLLOWS_PER_HOUR and
-- FOLLOWS_PER_DAY do (0: no limit), for load tests that follow far more than a person:
--   alter database <db> set social_gateway.follows_per_hour = 0;
-- A PostgREST client cannot: it runs no SET, and set_config is not in an exposed schema.

create table social_private.follow_events (
  follower_id uuid not null references public.profiles (id) on delete cascade,
  made_at timestamptz not null default clock_timestamp()
);
create index follow_events_follower_idx on social_private.follow_events (follower_id, made_at);
alter table social_private.follow_events enable row level security;
revoke all on social_private.follow_events from public, anon, authenticated;

-- Follows and follow requests one caller may make in an hour (FollowLimits.perHour).
create or replace function social_private.follows_per_hour() returns int
language sql stable set search_path = '' as $$
  select coalesce(nullif(current_setting('social_gateway.follows_per_hour', true), '')::int, 100)
$$;
-- ... and in a day (FollowLimits.perDay).
create or replace function social_private.follows_per_day() returns int
language sql stable set search_path = '' as $$
  select coalesce(nullif(current_setting('social_gateway.follows_per_day', true), '')::int, 500)
$$;
grant execute on function social_private.follows_per_hour() to authenticated, service_role;
grant execute on function social_private.follows_per_day() to authenticated, service_role;

-- Counts one follow or request of `me`, or raises PT429 when an hour's or a day's are made.
create or replace function social_private.count_follow(me uuid) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  now_at timestamptz := clock_timestamp();
  per_hour int := social_private.follows_per_hour();
  per_day int := social_private.follows_per_day();
  in_hour int;
  in_day int;
  oldest timestamptz;
begin
  delete from social_private.follow_events e where e.follower_id = me and e.made_at <= now_at - interval '1 day';
  if per_hour > 0 then
    select count(*), min(e.made_at) into in_hour, oldest from social_private.follow_events e
    where e.follower_id = me and e.made_at > now_at - interval '1 hour';
    if in_hour >= per_hour then
      raise exception 'follows_per_hour' using errcode = 'PT429', hint = 'follows_per_hour',
        detail = 'retry_after=' || greatest(1, ceil(extract(epoch from oldest + interval '1 hour' - now_at)))::int;
    end if;
  end if;
  if per_day > 0 then
    select count(*), min(e.made_at) into in_day, oldest from social_private.follow_events e where e.follower_id = me;
    if in_day >= per_day then
      raise exception 'follows_per_day' using errcode = 'PT429', hint = 'follows_per_day',
        detail = 'retry_after=' || greatest(1, ceil(extract(epoch from oldest + interval '1 day' - now_at)))::int;
    end if;
  end if;
  insert into social_private.follow_events (follower_id, made_at) values (me, now_at);
end $$;
revoke execute on function social_private.count_follow(uuid) from public, anon, authenticated;

-- change_follow_request as in 002300, counting a new pending request.
create or replace function social_private.change_follow_request(action text, me uuid, target uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  req public.follow_requests;
  pending boolean;
  ask boolean;
  changed boolean := false;
  wait int;
begin
  select * into req from public.follow_requests r where r.requester_id = me and r.target_id = target for update;
  pending := found and req.status = 'pending';
  ask := action = 'follow' or (action = 'toggle' and not pending);
  if not ask then
    if pending then
      delete from public.follow_requests r where r.requester_id = me and r.target_id = target;
      changed := true;
    end if;
  elsif not pending then
    if found and req.decided_at is not null then
      wait := ceil(extract(epoch from req.decided_at + interval '7 days' - clock_timestamp()))::int;
      if wait > 0 then
        raise exception 'follow_request_declined' using errcode = 'PT429', hint = 'follow_request_declined',
          detail = 'retry_after=' || wait;
      end if;
    end if;
    perform social_private.count_follow(me);
    insert into public.follow_requests as r (requester_id, target_id) values (me, target)
    on conflict (requester_id, target_id) do update
      set status = 'pending', created_at = clock_timestamp(), decided_at = null;
    changed := true;
  end if;
  return jsonb_build_object(
    'is_following', false,
    'follower', social_private.profile_as_seen(me),
    'followee', social_private.profile_as_seen(target),
    'changed', changed,
    'request_status', case when ask then 'pending' else 'none' end);
end $$;
revoke execute on function social_private.change_follow_request(text, uuid, uuid) from public, anon, authenticated;

-- follow_profile and toggle_follow as in 002300, counting a follow they make.
create or replace function public.follow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.blocked_either(me, target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  if social_private.is_following(me, target) then
    return public.follow_outcome(me, target);  -- already following (a private profile too)
  end if;
  if social_private.is_request_target(me, target) then
    return social_private.change_follow_request('follow', me, target);
  end if;
  perform public.follow_check(target);
  perform social_private.count_follow(me);
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update set deleted_at = null
    where f.deleted_at is not null;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.toggle_follow(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.blocked_either(me, target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  if social_private.is_following(me, target) then
    update public.follows set deleted_at = now()
    where follower_id = me and followee_id = target and deleted_at is null;
  elsif social_private.is_request_target(me, target) then
    return social_private.change_follow_request('toggle', me, target);
  else
    perform public.follow_check(target);
    perform social_private.count_follow(me);
    insert into public.follows as f (follower_id, followee_id) values (me, target)
    on conflict (follower_id, followee_id) do update set deleted_at = null
      where f.deleted_at is not null;
  end if;
  return public.follow_outcome(me, target);
end $$;
