-- Issue 54: notifications a client can catch up on. Until now notifications were only told live
-- (the `activity` of cache_notify, 002200): a client that was offline missed them all and had no
-- unread count to badge an icon. Now each write that notifies someone stores a row for them, in
-- the same transaction (a trigger on the written table), so a notification exists exactly when
-- its write committed:
-- - follows, an active INSERT or a restore: `followed` to the followee, the activity of 002200
--   (social_private.activity, same kind, actor, subject and time); when a pending request of the
--   same pair exists (answer_follow_request and approve_pending_on_public insert the follow
--   before they delete the request), also `followApproved` to the requester, actor the owner;
-- - post_likes INSERT: `liked` to the post's author; comments INSERT: `commented` to it;
-- - follow_requests, a pending INSERT or an UPDATE making it pending again (asking again after a
--   decline): `followRequested` to the private profile's owner, at the request's created_at;
-- - blocks INSERT: the notifications between the two profiles, both ways, are deleted (a block
--   already removes their follows and requests).
-- Never to oneself (a like of one's own post). A row is kept as history: an unlike or an unfollow
-- leaves it; it goes with its post, comment or either profile. By triggers, not foreign keys: a
-- foreign key's check takes a KEY SHARE lock on the profile (and post) it names, which conflicts
-- with the FOR UPDATE of social_private.lock_follow_pair, so a like notifying bob while a toggle
-- of a follow of bob waits on the like's post deadlocked under test-supabase-sql's concurrent
-- toggles. The writes that notify hold their rows' own foreign keys already (a like cannot
-- outlive its post), and the delete triggers run in the deleting transaction.
--
-- key is `kind:actor:subject:post:comment:at` (UUIDs lower case, an absent post or comment empty,
-- at in microseconds since 1970): SocialDomain's Activity.notificationKey, the text the gateway's
-- notification id encodes, so a notification read back here and the same one told live have the
-- same id, and a resumed subscription drops the live copy of one it has just sent. A list is
-- ordered by (at_us, key) newest first, the key compared byte for byte (collate "C"), as the
-- domain's NotificationPosition compares.
--
-- Retention (SocialDomain's NotificationRules, checked by SQLBoundsTests): a recipient keeps the
-- notifications of the last notification_retention_days() days and at most notification_limit()
-- of them; each new one deletes the recipient's older ones beyond either, in its transaction
-- (one walk of the recipient's index to the limit's row, then a range delete). Concurrent writes
-- notifying one recipient (a popular post's likes) do not queue on each other's deletes: one
-- prunes (a transaction-scoped advisory lock on the recipient, tried, never waited for), the
-- others skip it and leave their few rows to the next. Readers never list rows older than the
-- retention either, whether or not a newer write has pruned them yet.
--
-- Reads and marks are the caller's own rows only: row-level security (notifications_read_own,
-- notifications_mark_own) with SECURITY INVOKER functions, the column read_at the only one a
-- caller may update. A caller reads no more than the gateway shows (the anon key is public,
-- 002000): of its own rows only those whose actor it may see (the profiles policy: never across
-- a block, never a private profile seen only as a card), except a follow request, addressed to
-- it, whose requester's card is enough; as the domain's SocialRules.showsNotification, which the
-- gateway applies to these rows again with the post and comment checks.

create table public.notifications (
  key           text primary key,
  recipient_id  uuid not null,
  kind          text not null
                check (kind in ('followed', 'liked', 'commented', 'followRequested', 'followApproved')),
  actor_id      uuid not null,
  post_id       uuid,
  comment_id    uuid,
  at_us         bigint not null,
  read_at       timestamptz,
  constraint notifications_not_self check (actor_id <> recipient_id),
  constraint notifications_key_is_fields check (key = kind || ':' || actor_id::text || ':' || recipient_id::text || ':'
    || coalesce(post_id::text, '') || ':' || coalesce(comment_id::text, '') || ':' || at_us::text)
);
create index notifications_recipient_idx on public.notifications (recipient_id, at_us desc, key collate "C" desc);
-- the deletes with a profile, post or comment, and the block's, find the rows by these
create index notifications_actor_idx on public.notifications (actor_id, recipient_id);
create index notifications_post_idx on public.notifications (post_id) where post_id is not null;
create index notifications_comment_idx on public.notifications (comment_id) where comment_id is not null;

alter table public.notifications enable row level security;
grant select, update (read_at) on public.notifications to authenticated;
grant all on public.notifications to service_role;
create policy notifications_read_own on public.notifications for select to authenticated
  using (recipient_id = (select auth.uid())
         and (kind = 'followRequested' or exists (select 1 from public.profiles a where a.id = actor_id)));
create policy notifications_mark_own on public.notifications for update to authenticated
  using (recipient_id = (select auth.uid())) with check (recipient_id = (select auth.uid()));

create function social_private.notification_retention_days() returns integer
language sql immutable set search_path = '' as 'select 90';
create function social_private.notification_limit() returns integer
language sql immutable set search_path = '' as 'select 1000';

-- Stores one notification (nothing when it is the recipient's own act or already stored), then
-- prunes the recipient's beyond the retention.
create function social_private.notify(p_kind text, p_actor uuid, p_recipient uuid, p_post uuid, p_comment uuid, p_at bigint)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  cut_at bigint;
  cut_key text;
begin
  if p_actor = p_recipient then
    return;
  end if;
  insert into public.notifications (key, recipient_id, kind, actor_id, post_id, comment_id, at_us)
  values (p_kind || ':' || p_actor::text || ':' || p_recipient::text || ':' || coalesce(p_post::text, '') || ':'
            || coalesce(p_comment::text, '') || ':' || p_at::text,
          p_recipient, p_kind, p_actor, p_post, p_comment, p_at)
  on conflict (key) do nothing;
  if not found or not pg_try_advisory_xact_lock(hashtext('social_gateway.notifications'), hashtext(p_recipient::text)) then
    return;
  end if;
  select m.at_us, m.key into cut_at, cut_key from public.notifications m
  where m.recipient_id = p_recipient
  order by m.at_us desc, m.key collate "C" desc
  offset social_private.notification_limit() limit 1;
  delete from public.notifications n
  where n.recipient_id = p_recipient
    and (n.at_us < p_at - social_private.notification_retention_days()::bigint * 86400000000
         or n.at_us < cut_at or (n.at_us = cut_at and n.key collate "C" <= cut_key collate "C"));
end $$;
revoke execute on function social_private.notify(text, uuid, uuid, uuid, uuid, bigint) from public;

create function social_private.notifications_record() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  a jsonb;
  author uuid;
begin
  case tg_table_name
  when 'follow_requests' then
    if new.status = 'pending' and (tg_op = 'INSERT' or old.status is distinct from 'pending'
                                   or old.created_at is distinct from new.created_at) then
      perform social_private.notify('followRequested', new.requester_id, new.target_id, null, null,
                                    (extract(epoch from new.created_at) * 1000000)::bigint);
    end if;
    return null;
  when 'blocks' then
    delete from public.notifications n
    where (n.actor_id = new.blocker_id and n.recipient_id = new.blocked_id)
       or (n.actor_id = new.blocked_id and n.recipient_id = new.blocker_id);
    return null;
  when 'post_likes', 'comments' then
    select p.author_id into author from public.posts p where p.id = new.post_id;
  else
    null;
  end case;
  a := social_private.activity(tg_table_name, case when tg_op = 'UPDATE' then to_jsonb(old) end, to_jsonb(new), author);
  if a is null then
    return null;
  end if;
  perform social_private.notify(a ->> 'kind', (a ->> 'actor')::uuid, (a ->> 'subject')::uuid, (a ->> 'post')::uuid,
                                (a ->> 'comment')::uuid, (a ->> 'at')::bigint);
  if a ->> 'kind' = 'followed' then
    -- (nested: PL/pgSQL does not promise to skip the second operand of an `and`)
    if exists (select 1 from public.follow_requests r
               where r.requester_id = (a ->> 'actor')::uuid and r.target_id = (a ->> 'subject')::uuid
                 and r.status = 'pending') then
      perform social_private.notify('followApproved', (a ->> 'subject')::uuid, (a ->> 'actor')::uuid, null, null,
                                    (a ->> 'at')::bigint);
    end if;
  end if;
  return null;
end $$;
revoke execute on function social_private.notifications_record() from public;

create trigger follows_notifications after insert or update of deleted_at on public.follows
  for each row execute function social_private.notifications_record();
create trigger post_likes_notifications after insert on public.post_likes
  for each row execute function social_private.notifications_record();
create trigger comments_notifications after insert on public.comments
  for each row execute function social_private.notifications_record();
create trigger follow_requests_notifications after insert or update of status, created_at on public.follow_requests
  for each row execute function social_private.notifications_record();
create trigger blocks_notifications after insert on public.blocks
  for each row execute function social_private.notifications_record();

-- A deleted profile, post or comment takes its notifications (the foreign keys' cascade, without
-- their locks).
create function social_private.notifications_forget() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  case tg_table_name
  when 'profiles' then
    delete from public.notifications n where n.recipient_id = old.id;
    delete from public.notifications n where n.actor_id = old.id;
  when 'posts' then
    delete from public.notifications n where n.post_id = old.id;
  when 'comments' then
    delete from public.notifications n where n.comment_id = old.id;
  else
    raise exception 'social_private.notifications_forget: no notifications of %', tg_table_name;
  end case;
  return null;
end $$;
revoke execute on function social_private.notifications_forget() from public;
create trigger profiles_forget_notifications after delete on public.profiles
  for each row execute function social_private.notifications_forget();
create trigger posts_forget_notifications after delete on public.posts
  for each row execute function social_private.notifications_forget();
create trigger comments_forget_notifications after delete on public.comments
  for each row execute function social_private.notifications_forget();

-- The caller's notifications at or after since_us, newest first, at most max_rows (capped at the
-- per-recipient limit): [{"kind","actor","subject","post","comment","at","read"}].
create function public.notification_rows(since_us bigint, max_rows integer default 1000)
returns jsonb
language plpgsql stable security invoker set search_path = '' set jit = off as $$
begin
  if auth.uid() is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_notifications';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'kind', n.kind, 'actor', n.actor_id, 'subject', n.recipient_id, 'post', n.post_id,
             'comment', n.comment_id, 'at', n.at_us, 'read', n.read_at is not null)
           order by n.at_us desc, n.key collate "C" desc)
    from (select m.* from public.notifications m
          where m.recipient_id = auth.uid() and m.at_us >= since_us
          order by m.at_us desc, m.key collate "C" desc
          limit least(greatest(max_rows, 0), social_private.notification_limit())) n),
    '[]'::jsonb);
end $$;
revoke all on function public.notification_rows(bigint, integer) from public;
grant execute on function public.notification_rows(bigint, integer) to anon, authenticated;

-- Marks the caller's unread notifications read: the one of only_key, or every one at or before
-- (through_us, through_key). Returns how many changed.
create function public.mark_notifications_read(only_key text default null, through_us bigint default null,
                                               through_key text default null)
returns integer
language plpgsql volatile security invoker set search_path = '' as $$
declare
  changed integer;
begin
  if auth.uid() is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_notifications';
  end if;
  if (only_key is null) = (through_us is null or through_key is null) then
    raise exception 'bad_request' using errcode = '22023', detail = 'give only_key, or through_us and through_key';
  end if;
  update public.notifications n set read_at = now()
  where n.recipient_id = auth.uid() and n.read_at is null
    and (n.key = only_key
         or (only_key is null
             and (n.at_us < through_us or (n.at_us = through_us and n.key collate "C" <= through_key collate "C"))));
  get diagnostics changed = row_count;
  return changed;
end $$;
revoke all on function public.mark_notifications_read(text, bigint, text) from public;
grant execute on function public.mark_notifications_read(text, bigint, text) to anon, authenticated;
