-- The caller's own pending follow requests (migration 20250301004000, issue 54): newest first,
-- each profile asked as a card, only the caller's own rows, anon refused. ivy and jon are
-- private; kim asks both, then cancels one; lee asks nobody. In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

insert into auth.users (id, email) values
  ('a1000000-0000-4000-8000-000000000040', 'ivy@example.com'),
  ('a2000000-0000-4000-8000-000000000040', 'jon@example.com'),
  ('a3000000-0000-4000-8000-000000000040', 'kim@example.com'),
  ('a4000000-0000-4000-8000-000000000040', 'lee@example.com');
update public.profiles set handle = 'ivy_private', bio = 'ivy secret', is_public = false where id = 'a1000000-0000-4000-8000-000000000040';
update public.profiles set handle = 'jon_private', bio = 'jon secret', is_public = false where id = 'a2000000-0000-4000-8000-000000000040';
update public.profiles set handle = 'kim_asks' where id = 'a3000000-0000-4000-8000-000000000040';
update public.profiles set handle = 'lee_nobody' where id = 'a4000000-0000-4000-8000-000000000040';

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  if who is null then
    perform set_config('role', 'anon', true);
    perform set_config('request.jwt.claims', '', true);
  else
    perform set_config('role', 'authenticated', true);
    perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
  end if;
end $$;

do $$
declare
  ivy constant uuid := 'a1000000-0000-4000-8000-000000000040';
  jon constant uuid := 'a2000000-0000-4000-8000-000000000040';
  kim constant uuid := 'a3000000-0000-4000-8000-000000000040';
  lee constant uuid := 'a4000000-0000-4000-8000-000000000040';
  page jsonb;
begin
  perform pg_temp.login(kim);
  perform public.follow_profile(ivy);
  perform public.follow_profile(jon);
  reset role;
  -- distinct times: jon's request is the newer one
  update public.follow_requests set created_at = now() - interval '1 minute' where target_id = ivy;

  perform pg_temp.login(kim);
  page := public.sent_follow_request_page();
  if (page ->> 'total')::int <> 2 or jsonb_array_length(page -> 'requests') <> 2 then raise exception 'FAIL: kim''s requests: %', page; end if;
  if page -> 'requests' -> 0 -> 'target' ->> 'handle' <> 'jon_private' or page -> 'requests' -> 1 -> 'target' ->> 'handle' <> 'ivy_private' then
    raise exception 'FAIL: not newest first: %', page;
  end if;
  if page -> 'requests' -> 0 -> 'target' ->> 'bio' is not null or (page -> 'requests' -> 0 -> 'target' ->> 'card') <> 'true' then
    raise exception 'FAIL: the profile asked is not a card: %', page;
  end if;
  -- one at a time, by the keyset
  page := public.sent_follow_request_page(null, null, 1);
  if jsonb_array_length(page -> 'requests') <> 1 then raise exception 'FAIL: page size: %', page; end if;
  page := public.sent_follow_request_page((page -> 'requests' -> 0 ->> 'created_us')::bigint, jon, 1);
  if jsonb_array_length(page -> 'requests') <> 1 or page -> 'requests' -> 0 -> 'target' ->> 'handle' <> 'ivy_private' then
    raise exception 'FAIL: second page: %', page;
  end if;
  -- unfollow cancels
  perform public.unfollow_profile(jon);
  page := public.sent_follow_request_page();
  if (page ->> 'total')::int <> 1 or page -> 'requests' -> 0 -> 'target' ->> 'handle' <> 'ivy_private' then
    raise exception 'FAIL: after cancelling: %', page;
  end if;
  reset role;

  -- the owner and a stranger list nothing of kim's
  perform pg_temp.login(ivy);
  if (public.sent_follow_request_page() ->> 'total')::int <> 0 then raise exception 'FAIL: ivy lists kim''s request as hers'; end if;
  reset role;
  perform pg_temp.login(lee);
  if public.sent_follow_request_page() <> '{"total": 0, "requests": []}'::jsonb then raise exception 'FAIL: lee lists requests'; end if;
  reset role;

  -- a block removes the request (and so it is not listed)
  perform pg_temp.login(ivy);
  perform public.block_profile(kim);
  reset role;
  perform pg_temp.login(kim);
  if (public.sent_follow_request_page() ->> 'total')::int <> 0 then raise exception 'FAIL: a blocked request is listed'; end if;
  reset role;

  -- anon: refused (no grant)
  perform pg_temp.login(null);
  begin
    perform public.sent_follow_request_page();
    raise exception 'FAIL: anon listed requests';
  exception when insufficient_privilege then null;
  end;
  reset role;
end $$;
reset role;
rollback;
