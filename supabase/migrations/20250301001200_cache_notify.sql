-- social-gateway schema, part 13: every write the gateway's response cache depends on sends a
-- notification, so every replica invalidates its own cache, whoever wrote.
--
-- Each gateway replica keeps its own SQLite response cache, tagged with what each response was
-- built from (CacheTags.swift). A replica's own mutations invalidate its own cache, but nothing
-- told it about a write made through another replica, by an app talking to the project directly
-- (PostgREST with the anon key, the service role), or in psql: its cached answers stayed stale
-- until they expired. Now a row trigger on each table the cache reads sends the tags the write
-- changed on channel `social_gateway_cache`, and every replica LISTENs there.
--
-- Payload: compact JSON text `{"v":1,"table":"<table>","tags":["<tag>",...]}`, tags in
-- CacheTags' vocabulary (`Profile:<uuid>`, `followers:<uuid>`, `following:<uuid>`,
-- `follow-lists`, `search`; UUIDs lower-case), distinct, in byte order. At most eight tags of
-- under 50 bytes: far below NOTIFY's 8000-byte payload limit.
-- - follows, any write: Profile: of both ends, followers:<followee>, following:<follower> (an
--   update that moves a row to another pair, which nothing does, names both pairs).
-- - profiles, insert or delete: Profile:<id>, search, follow-lists.
-- - profiles, update: Profile:<id>; search when a column other than the counters and updated_at
--   changed; follow-lists when is_public changed. So a follow, whose counter trigger updates two
--   profiles, sends Profile: tags only and does not empty every cached search. send_count counts
--   as a counter: it neither selects nor orders search results, and every cached search lists its
--   profiles' Profile: tags, so those tags already reach the answers that show it.
-- - profile_private, any write: Profile:<id>.
--
-- NOTIFY is transactional: the notifications go out at commit, in the order sent, nothing for a
-- rolled-back write, and identical payloads of one transaction go once. TRUNCATE fires no row
-- trigger and sends nothing.
--
-- The tags come from social_private.cache_tags, a pure function of the old and new rows (as
-- jsonb) so that tests can call it; the trigger function only sends them.

create or replace function social_private.cache_tags(table_name text, old_row jsonb, new_row jsonb)
returns text[]
language plpgsql immutable set search_path = '' as $$
declare
  -- what search neither matches nor orders by (its results carry Profile: tags for the rest)
  counters constant text[] := array['follower_count', 'following_count', 'send_count', 'updated_at'];
  tags text[] := '{}';
  r jsonb;
begin
  if old_row is null and new_row is null then
    raise exception 'social_private.cache_tags: no row of %', table_name;
  end if;
  case table_name
  when 'follows' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || array[
        'Profile:' || (r ->> 'follower_id')::uuid, 'Profile:' || (r ->> 'followee_id')::uuid,
        'followers:' || (r ->> 'followee_id')::uuid, 'following:' || (r ->> 'follower_id')::uuid];
    end loop;
  when 'profiles' then
    if old_row is null or new_row is null or old_row ->> 'id' is distinct from new_row ->> 'id' then
      -- a profile appears or goes (an id change is both)
      foreach r in array array_remove(array[old_row, new_row], null) loop
        tags := tags || array['Profile:' || (r ->> 'id')::uuid, 'search', 'follow-lists'];
      end loop;
    else
      tags := array['Profile:' || (new_row ->> 'id')::uuid];
      if (old_row - counters) is distinct from (new_row - counters) then
        tags := tags || 'search'::text;
      end if;
      if old_row -> 'is_public' is distinct from new_row -> 'is_public' then
        tags := tags || 'follow-lists'::text;
      end if;
    end if;
  when 'profile_private' then
    foreach r in array array_remove(array[old_row, new_row], null) loop
      tags := tags || ('Profile:' || (r ->> 'id')::uuid);
    end loop;
  else
    raise exception 'social_private.cache_tags: no cache tags for table %', table_name;
  end case;
  if array_position(tags, null) is not null then
    raise exception 'social_private.cache_tags: a % row without its ids', table_name;
  end if;
  return array(select distinct t collate "C" from unnest(tags) as t order by 1);
end $$;
revoke execute on function social_private.cache_tags(text, jsonb, jsonb) from public;

-- SECURITY DEFINER because it runs as whoever writes (authenticated through PostgREST, the
-- service role writing premium status, any role in psql), and most of them may not use the
-- social_private schema where cache_tags lives (000200 revoked it from public). pg_notify itself
-- needs no privilege. A trigger function cannot be called directly.
create or replace function social_private.cache_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  tags text[] := social_private.cache_tags(
    tg_table_name,
    case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end,
    case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end);
begin
  perform pg_notify('social_gateway_cache',
    '{"v":1,"table":' || to_json(tg_table_name::text)::text || ',"tags":' || array_to_json(tags)::text || '}');
  return null;
end $$;
revoke execute on function social_private.cache_notify() from public;

create trigger follows_cache_notify after insert or update or delete on public.follows
  for each row execute function social_private.cache_notify();
create trigger profiles_cache_notify after insert or update or delete on public.profiles
  for each row execute function social_private.cache_notify();
create trigger profile_private_cache_notify after insert or update or delete on public.profile_private
  for each row execute function social_private.cache_notify();
