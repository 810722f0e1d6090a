-- social-gateway schema, part 3: the functions the gateway calls through /rest/v1/rpc/...
--
-- Reads are STABLE and SECURITY INVOKER, so row-level security decides what each caller sees,
-- exactly as for a plain table read; each one answers a whole query level (many lists, many
-- pairs) in one request. Writes run the check, the soft-delete restore and (through the
-- counter trigger) the counters in one transaction: no read-then-write race.

-- The profile as the gateway reads it: the same keys as `select=` on the table.
create or replace function public.profile_json(p public.profiles) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', p.bio,
    'photo_url', p.photo_url, 'home_gym', p.home_gym, 'climbing_since', p.climbing_since,
    'favorite_style', p.favorite_style, 'is_public', p.is_public,
    'follower_count', p.follower_count, 'following_count', p.following_count,
    'created_at', p.created_at, 'updated_at', p.updated_at)
$$;

-- Search: public profiles whose handle or display name matches `pattern` (an ILIKE pattern the
-- gateway escaped: `\`, `%`, `_` preceded by `\`), ordered by (lower(handle), id), strictly
-- after the keyset (after_handle, after_id) when given. The row comparison is an index
-- condition on profiles_search_keyset_idx, so deep pages cost the same as the first.
create or replace function public.search_profiles(
  pattern text, after_handle text default null, after_id uuid default null, page_size int default 21
) returns setof public.profiles
language sql stable security invoker set search_path = '' as $$
  select p.* from public.profiles p
  where p.is_public
    and (p.handle ilike pattern escape '\' or p.display_name ilike pattern escape '\')
    and (p.handle_lower, p.id) > (coalesce(after_handle, ''), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
  order by p.handle_lower, p.id
  limit least(greatest(page_size, 0), 101)
$$;

-- One page for each of many follow lists (a whole GraphQL query level) in one request.
-- `requests` is a JSON array of {owner, kind: followers|following, backward, cursor_us,
-- cursor_id, limit}; each yields up to limit + 1 edges (newest first forward, oldest first
-- backward) whose other profile the caller may see, or one row with null edge columns.
-- total_count is the owner's stored counter. Cursor times are integer microseconds since
-- 1970 UTC, compared exactly.
create or replace function public.follow_pages(requests jsonb)
returns table (
  request_index int, total_count int, follow_id uuid, follower_id uuid, followee_id uuid,
  follow_created_us bigint, profile jsonb
)
language sql stable security invoker set search_path = '' as $$
  with req as (
    select (r.ord - 1)::int as idx,
           (r.value ->> 'owner')::uuid as owner,
           (r.value ->> 'kind') = 'following' as following,
           coalesce((r.value ->> 'backward')::boolean, false) as backward,
           timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond' as c_at,
           (r.value ->> 'cursor_id')::uuid as c_id,
           least(greatest(coalesce((r.value ->> 'limit')::int, 20), 0), 100) + 1 as fetch
    from jsonb_array_elements(requests) with ordinality as r(value, ord)
  )
  select req.idx,
         coalesce((select case when req.following then o.following_count else o.follower_count end
                   from public.profiles o where o.id = req.owner), 0),
         e.id, e.follower_id, e.followee_id,
         (extract(epoch from e.created_at) * 1000000)::bigint,
         e.profile
  from req
  left join lateral (
    (select f.id, f.follower_id, f.followee_id, f.created_at, public.profile_json(p) as profile
     from public.follows f join public.profiles p on p.id = f.follower_id
     where not req.following and not req.backward and f.followee_id = req.owner and f.deleted_at is null
       and (f.created_at, f.id) < (coalesce(req.c_at, 'infinity'), coalesce(req.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
     order by f.created_at desc, f.id desc limit req.fetch)
    union all
    (select f.id, f.follower_id, f.followee_id, f.created_at, public.profile_json(p)
     from public.follows f join public.profiles p on p.id = f.follower_id
     where not req.following and req.backward and f.followee_id = req.owner and f.deleted_at is null
       and (f.created_at, f.id) > (coalesce(req.c_at, '-infinity'), coalesce(req.c_id, '00000000-0000-0000-0000-000000000000'))
     order by f.created_at, f.id limit req.fetch)
    union all
    (select f.id, f.follower_id, f.followee_id, f.created_at, public.profile_json(p)
     from public.follows f join public.profiles p on p.id = f.followee_id
     where req.following and not req.backward and f.follower_id = req.owner and f.deleted_at is null
       and (f.created_at, f.id) < (coalesce(req.c_at, 'infinity'), coalesce(req.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
     order by f.created_at desc, f.id desc limit req.fetch)
    union all
    (select f.id, f.follower_id, f.followee_id, f.created_at, public.profile_json(p)
     from public.follows f join public.profiles p on p.id = f.followee_id
     where req.following and req.backward and f.follower_id = req.owner and f.deleted_at is null
       and (f.created_at, f.id) > (coalesce(req.c_at, '-infinity'), coalesce(req.c_id, '00000000-0000-0000-0000-000000000000'))
     order by f.created_at, f.id limit req.fetch)
  ) e on true
  order by req.idx,
           case when req.backward then e.created_at end, case when req.backward then e.id end,
           e.created_at desc, e.id desc
$$;

-- Which of many (follower, followee) pairs are active follows: `pairs` is a JSON array of
-- {follower_id, followee_id}.
create or replace function public.active_follows(pairs jsonb)
returns table (follower_id uuid, followee_id uuid)
language sql stable security invoker set search_path = '' as $$
  select f.follower_id, f.followee_id
  from jsonb_to_recordset(pairs) as q(follower_id uuid, followee_id uuid)
  join public.follows f on f.follower_id = q.follower_id and f.followee_id = q.followee_id
  where f.deleted_at is null
$$;

-- Locks both profile rows of a follow pair, in id order, before anything else in the
-- transaction touches them. Without it, concurrent follow mutations deadlock: the foreign-key
-- checks lock (follower, followee) in column order, the counter trigger in id order, and the
-- follows row sits between them [seen in scripts/test-supabase-sql's concurrent toggles].
-- SECURITY DEFINER because RLS lets a caller lock only their own profile; it lives in a schema
-- PostgREST does not expose, so clients cannot call it directly.
create schema if not exists social_private;
revoke all on schema social_private from public;
grant usage on schema social_private to authenticated;
create or replace function social_private.lock_follow_pair(a uuid, b uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform 1 from public.profiles where id in (a, b) order by id for no key update;
end $$;
revoke execute on function social_private.lock_follow_pair(uuid, uuid) from public;
grant execute on function social_private.lock_follow_pair(uuid, uuid) to authenticated;

-- The shared checks of the three follow mutations: signed in, not yourself, the target visible
-- to the caller (a private profile is "not found" to strangers, as in every read); then the
-- pair's profile rows are locked in id order.
create or replace function public.follow_check(target uuid) returns uuid
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'You must be logged in to follow users' using errcode = 'PT401', hint = 'authentication_required';
  end if;
  if me = target then
    raise exception 'You cannot follow yourself' using errcode = 'PT400', hint = 'cannot_follow_self';
  end if;
  if not exists (select 1 from public.profiles where id = target)
     or not exists (select 1 from public.profiles where id = me) then
    raise exception 'Profile not found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  perform social_private.lock_follow_pair(me, target);
  return me;
end $$;

-- The state after a mutation plus both profiles with their fresh counters (null when hidden).
create or replace function public.follow_outcome(me uuid, target uuid) returns jsonb
language sql stable security invoker set search_path = '' as $$
  select jsonb_build_object(
    'is_following', exists (select 1 from public.follows f
                            where f.follower_id = me and f.followee_id = target and f.deleted_at is null),
    'follower', (select public.profile_json(p) from public.profiles p where p.id = me),
    'followee', (select public.profile_json(p) from public.profiles p where p.id = target))
$$;

-- Follow: insert, or restore a soft-deleted row (keeping its original created_at); a no-op
-- when already following.
create or replace function public.follow_profile(target uuid) returns jsonb
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update set deleted_at = null
    where f.deleted_at is not null;
  return public.follow_outcome(me, target);
end $$;

-- Unfollow: soft delete; a no-op when not following.
create or replace function public.unfollow_profile(target uuid) returns jsonb
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  update public.follows set deleted_at = now()
  where follower_id = me and followee_id = target and deleted_at is null;
  return public.follow_outcome(me, target);
end $$;

-- Toggle: one upsert on follows_pair_key; the row lock it takes serialises concurrent toggles
-- of one pair, so none is lost and the counters stay equal to the active rows.
create or replace function public.toggle_follow(target uuid) returns jsonb
language plpgsql security invoker set search_path = '' as $$
declare
  me uuid := public.follow_check(target);
begin
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update
    set deleted_at = case when f.deleted_at is null then now() else null end;
  return public.follow_outcome(me, target);
end $$;

revoke execute on function
  public.profile_json(public.profiles), public.search_profiles(text, text, uuid, int),
  public.follow_pages(jsonb), public.active_follows(jsonb), public.follow_check(uuid),
  public.follow_outcome(uuid, uuid), public.follow_profile(uuid), public.unfollow_profile(uuid),
  public.toggle_follow(uuid)
  from public;
grant execute on function
  public.profile_json(public.profiles), public.search_profiles(text, text, uuid, int),
  public.follow_pages(jsonb), public.active_follows(jsonb)
  to anon, authenticated;
grant execute on function
  public.follow_check(uuid), public.follow_outcome(uuid, uuid),
  public.follow_profile(uuid), public.unfollow_profile(uuid), public.toggle_follow(uuid)
  to authenticated;
