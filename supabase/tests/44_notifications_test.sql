-- Stored notifications (migration 20250301004400, issue 54): each write that notifies someone
-- stores a row for them in its transaction, keyed as the gateway's ids are; the recipient reads
-- and marks only their own; a block removes those between the two; retention bounds each
-- recipient. ana (public) posts; ben follows her, likes and comments on her post; cal (private)
-- is asked by ana and approves; dee likes her own post (nothing). In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

insert into auth.users (id, email) values
  ('b1000000-0000-4000-8000-000000000044', 'ana@example.com'),
  ('b2000000-0000-4000-8000-000000000044', 'ben@example.com'),
  ('b3000000-0000-4000-8000-000000000044', 'cal@example.com');
update public.profiles set handle = 'ana_notified' where id = 'b1000000-0000-4000-8000-000000000044';
update public.profiles set handle = 'ben_acts' where id = 'b2000000-0000-4000-8000-000000000044';
update public.profiles set handle = 'cal_private', is_public = false where id = 'b3000000-0000-4000-8000-000000000044';
insert into public.posts (id, author_id, content) values
  ('c1000000-0000-4000-8000-000000000044', 'b1000000-0000-4000-8000-000000000044', 'ana''s post');

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

create function pg_temp.kinds(rows jsonb) returns text language sql as $$
  select coalesce(string_agg(r ->> 'kind', ',' order by n), '') from jsonb_array_elements(rows) with ordinality as x(r, n)
$$;

do $$
declare
  ana constant uuid := 'b1000000-0000-4000-8000-000000000044';
  ben constant uuid := 'b2000000-0000-4000-8000-000000000044';
  cal constant uuid := 'b3000000-0000-4000-8000-000000000044';
  post constant uuid := 'c1000000-0000-4000-8000-000000000044';
  rows jsonb;
  n integer;
  key text;
begin
  -- ben follows ana, likes and comments on her post (each its own time); ana likes her own post
  perform pg_temp.login(ben);
  perform public.follow_profile(ana);
  perform public.set_like(post, true);
  insert into public.comments (post_id, author_id, content) values (post, ben, 'nice');
  reset role;
  perform pg_temp.login(ana);
  perform public.set_like(post, true);
  -- ana asks cal (private) to follow
  perform public.follow_profile(cal);
  rows := public.notification_rows(0);
  -- one transaction: one time, so the key orders them (byte order, newest first)
  if pg_temp.kinds(rows) <> 'liked,followed,commented' then raise exception 'FAIL: ana''s notifications: %', rows; end if;
  if (select count(*) from jsonb_array_elements(rows) r where (r ->> 'read')::boolean) <> 0 then raise exception 'FAIL: unread'; end if;
  -- the key is the gateway's: kind:actor:subject:post:comment:at
  key := (select n.key from public.notifications n where n.kind = 'liked');
  if key <> 'liked:' || ben || ':' || ana || ':' || post || '::' || (rows -> 1 ->> 'at') then raise exception 'FAIL: key %', key; end if;
  reset role;

  -- cal (private, not followed by ana) likes ana's post: stored, but ana may not read it while she
  -- sees only cal's card (the profiles policy), as the gateway does not list it
  perform pg_temp.login(cal);
  perform public.set_like(post, true);
  reset role;
  perform pg_temp.login(ana);
  if pg_temp.kinds(public.notification_rows(0)) <> 'liked,followed,commented' then raise exception 'FAIL: a card''s like read: %', public.notification_rows(0); end if;
  reset role;
  if (select count(*) from public.notifications where recipient_id = ana) <> 4 then raise exception 'FAIL: cal''s like not stored'; end if;

  -- cal was asked, approves: ana hears of the approval, cal of the request and of the follow
  perform pg_temp.login(cal);
  if pg_temp.kinds(public.notification_rows(0)) <> 'followRequested' then raise exception 'FAIL: cal asked: %', public.notification_rows(0); end if;
  perform public.answer_follow_request(ana, true);
  if pg_temp.kinds(public.notification_rows(0)) <> 'followRequested,followed' then raise exception 'FAIL: cal: %', public.notification_rows(0); end if;
  reset role;
  perform pg_temp.login(ana);
  rows := public.notification_rows(0);
  -- ana now follows cal: cal's like shows (keys compare by byte: cal's id is after ben's)
  if pg_temp.kinds(rows) <> 'liked,liked,followed,followApproved,commented' then raise exception 'FAIL: approval: %', rows; end if;
  if rows -> 0 ->> 'actor' <> cal::text then raise exception 'FAIL: cal''s like first: %', rows; end if;

  -- rows are the caller's own: ana cannot read or mark cal's, not even by a direct query
  if (select count(*) from public.notifications) <> 5 then raise exception 'FAIL: RLS read'; end if;
  update public.notifications set read_at = now() where recipient_id = cal;
  if not found then null; end if;
  -- mark one, then all through the oldest
  n := public.mark_notifications_read(only_key => key);
  if n <> 1 then raise exception 'FAIL: mark one changed %', n; end if;
  if (select count(*) from jsonb_array_elements(public.notification_rows(0)) r where not (r ->> 'read')::boolean) <> 4 then
    raise exception 'FAIL: unread after marking one';
  end if;
  n := public.mark_notifications_read(only_key => key);
  if n <> 0 then raise exception 'FAIL: mark again changed %', n; end if;
  n := public.mark_notifications_read(through_us => (rows -> 1 ->> 'at')::bigint,
                                      through_key => (select k.key from public.notifications k where k.kind = 'followed' and k.recipient_id = ana));
  if n <> 3 then raise exception 'FAIL: through the follow changed % (it and the two before it)', n; end if;
  begin
    perform public.mark_notifications_read();
    raise exception 'FAIL: nothing to mark was accepted';
  exception when invalid_parameter_value then null;
  end;
  reset role;
  perform pg_temp.login(cal);
  if exists (select 1 from jsonb_array_elements(public.notification_rows(0)) r where (r ->> 'read')::boolean) then
    raise exception 'FAIL: ana marked cal''s';
  end if;
  begin
    update public.notifications set kind = 'liked';
    raise exception 'FAIL: kind was writable';
  exception when insufficient_privilege then null;
  end;
  reset role;

  -- anonymous: the coded error
  perform pg_temp.login(null);
  begin
    perform public.notification_rows(0);
    raise exception 'FAIL: anon read';
  exception when sqlstate 'PT401' then null;
  end;
  reset role;

  -- a block removes what is between the two, both ways
  perform pg_temp.login(ana);
  perform public.block_profile(ben);
  if pg_temp.kinds(public.notification_rows(0)) <> 'liked,followApproved' then raise exception 'FAIL: after block: %', public.notification_rows(0); end if;
  reset role;

  -- retention: beyond the limit, the oldest go; older than the days, too
  delete from public.notifications;
  for i in 1 .. social_private.notification_limit() + 2 loop
    perform social_private.notify('followed', ben, cal, null, null, 1000000000000000 + i);
  end loop;
  if (select count(*) from public.notifications where recipient_id = cal) <> social_private.notification_limit() then
    raise exception 'FAIL: limit kept %', (select count(*) from public.notifications where recipient_id = cal);
  end if;
  if (select min(at_us) from public.notifications where recipient_id = cal) <> 1000000000000003 then raise exception 'FAIL: the oldest went'; end if;
  perform social_private.notify('followed', ana, cal, null, null,
    1000000000000000 + social_private.notification_retention_days()::bigint * 86400000000 + 5000);
  if (select count(*) from public.notifications where recipient_id = cal) <> 1 then raise exception 'FAIL: retention days'; end if;
end $$;
reset role;
rollback;
