-- social-gateway schema, part 23: a write that is something a profile did says so in its cache
-- notification, so every replica's subscriptions hear of it, whoever wrote (issue 39).
--
-- GraphQL subscriptions (notifications, feedPosts, postActivity) are fed by the gateway's change
-- stream, which on PostgreSQL is the LISTEN on `social_gateway_cache` (001200). Tags say what
-- data changed, not what happened: a follows row's tags are the same for a follow and an
-- unfollow, a posts row's the same for a new post and a like's counter update. So each write that
-- is an activity adds an `activity` object to the notification it already sends, on the same
-- channel, in the same transaction (nothing for a rolled-back write):
--
--   {"v":1,"table":"follows","tags":[...],"activity":{"kind":"followed","actor":"<uuid>",
--    "subject":"<uuid>","post":null,"comment":null,"at":<bigint>}}
--
-- Compact JSON, keys in this order, exactly SocialDomain's Activity (Codable): UUIDs lower-case,
-- `post` and `comment` JSON null when the kind has none, `at` the row's own time in microseconds
-- since 1970 UTC. The tags are those of 001200/001700, unchanged; a write that is no activity
-- sends exactly what it sent before. The activity adds under 250 bytes: the payload stays far
-- below NOTIFY's 8000-byte limit.
-- - follows: INSERT of an active row (deleted_at null), or an UPDATE taking deleted_at from
--   non-null to null (a restored follow): `followed`, actor = follower_id, subject = followee_id,
--   at = updated_at (the insert's default, the restore's follows_touch). Nothing for an unfollow,
--   a delete, or an update that leaves the follow as it was. A follow of a profile already
--   followed writes no row at all: follow_profile and toggle_follow (000400, 000500) upsert with
--   `on conflict ... do update set deleted_at = null where f.deleted_at is not null`, which
--   updates nothing (and fires no row trigger) when the follow is active; a direct UPDATE that
--   keeps deleted_at null still sends its tags but no activity.
-- - post_likes, INSERT: `liked`, actor = profile_id, subject = the post's author_id, post =
--   post_id, at = created_at. An unlike (DELETE) is none.
-- - comments, INSERT: `commented`, actor = author_id, subject = the post's author_id, post =
--   post_id, comment = id, at = created_at.
-- - posts, INSERT: `posted`, actor = subject = author_id, post = id, at = created_at. An edit, a
--   counter update (a like's, a comment's) or a delete is none.
-- - profiles, profile_private, stories: never.
--
-- The activity comes from social_private.activity, a function of the old and new rows (as jsonb)
-- like cache_tags, so that tests can call it. A like's or a comment's subject is not in its row:
-- cache_notify looks the post's author up (one primary-key probe, for those inserts only) and
-- passes it in, which keeps activity() free of table reads; it is STABLE rather than IMMUTABLE
-- only because the text-to-timestamptz cast is (the rows' times always carry their offset, so
-- the session's time zone never matters). The lookup cannot miss: the row's foreign key, checked
-- before this trigger (RI triggers sort first), holds the post locked against deletion.
--
-- `at` is `(extract(epoch from t) * 1000000)::bigint`, the form follow_pages' cursors use
-- (000200): since PostgreSQL 14 extract returns numeric, so for a microsecond timestamp the
-- product is an exact integer and the cast does not round. A time that is not finite (only an
-- `infinity` written by hand) is no activity rather than an aborted write.

create or replace function social_private.activity(table_name text, old_row jsonb, new_row jsonb,
                                                   post_author uuid default null)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  kind text;
  actor uuid;
  subject uuid;
  post uuid;
  comment uuid;
  at_time timestamptz;
begin
  if old_row is null and new_row is null then
    raise exception 'social_private.activity: no row of %', table_name;
  end if;
  case table_name
  when 'follows' then
    if new_row is null or new_row ->> 'deleted_at' is not null
       or (old_row is not null and old_row ->> 'deleted_at' is null) then
      return null;  -- an unfollow, a delete, an undone follow written as such, or no change
    end if;
    kind := 'followed';
    actor := (new_row ->> 'follower_id')::uuid;
    subject := (new_row ->> 'followee_id')::uuid;
    at_time := (new_row ->> 'updated_at')::timestamptz;
  when 'post_likes' then
    if old_row is not null then return null; end if;
    kind := 'liked';
    actor := (new_row ->> 'profile_id')::uuid;
    subject := post_author;
    post := (new_row ->> 'post_id')::uuid;
    at_time := (new_row ->> 'created_at')::timestamptz;
  when 'comments' then
    if old_row is not null then return null; end if;
    kind := 'commented';
    actor := (new_row ->> 'author_id')::uuid;
    subject := post_author;
    post := (new_row ->> 'post_id')::uuid;
    comment := (new_row ->> 'id')::uuid;
    at_time := (new_row ->> 'created_at')::timestamptz;
  when 'posts' then
    if old_row is not null then return null; end if;
    kind := 'posted';
    actor := (new_row ->> 'author_id')::uuid;
    subject := actor;
    post := (new_row ->> 'id')::uuid;
    at_time := (new_row ->> 'created_at')::timestamptz;
  when 'profiles', 'profile_private', 'stories' then
    return null;
  else
    raise exception 'social_private.activity: no activities for table %', table_name;
  end case;
  if actor is null or subject is null or at_time is null
     or (kind <> 'followed' and post is null) or (kind = 'commented' and comment is null) then
    raise exception 'social_private.activity: a % row without its ids, its time or its post''s author', table_name;
  end if;
  if not isfinite(at_time) then
    return null;
  end if;
  return jsonb_build_object(
    'kind', kind, 'actor', actor, 'subject', subject, 'post', post, 'comment', comment,
    'at', (extract(epoch from at_time) * 1000000)::bigint);
end $$;
revoke execute on function social_private.activity(text, jsonb, jsonb, uuid) from public;

-- As in 001200, with the activity appended when there is one. SECURITY DEFINER as before (the
-- writer may not use social_private), which also lets the post's author be read whatever the
-- writer's row-level security shows.
create or replace function social_private.cache_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  tags text[] := social_private.cache_tags(tg_table_name, old_row, new_row);
  post_author uuid;
  activity jsonb;
  payload text;
begin
  if tg_op = 'INSERT' and tg_table_name in ('post_likes', 'comments') then
    select p.author_id into post_author from public.posts p where p.id = (new_row ->> 'post_id')::uuid;
  end if;
  activity := social_private.activity(tg_table_name, old_row, new_row, post_author);
  payload := '{"v":1,"table":' || to_json(tg_table_name::text)::text || ',"tags":' || array_to_json(tags)::text;
  if activity is not null then
    -- compact, in Activity's key order (jsonb's own text has spaces and sorts keys by length)
    payload := payload || ',"activity":{"kind":' || (activity -> 'kind')::text
      || ',"actor":' || (activity -> 'actor')::text || ',"subject":' || (activity -> 'subject')::text
      || ',"post":' || (activity -> 'post')::text || ',"comment":' || (activity -> 'comment')::text
      || ',"at":' || (activity -> 'at')::text || '}';
  end if;
  perform pg_notify('social_gateway_cache', payload || '}');
  return null;
end $$;
revoke execute on function social_private.cache_notify() from public;
