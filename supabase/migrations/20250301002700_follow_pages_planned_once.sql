-- social-gateway schema, part 27: a follow page costs its rows, not the owner's whole follower list
-- and a new plan (issue 41).
--
-- follow_pages_with_states (001100) was a SQL-language invoker function over follow_pages: RLS
-- filtered every follows row of the owner before the page's LIMIT (a policy's quals run before
-- the keyset's row comparison, which is not leakproof), and PostgreSQL planned the body, RLS
-- sub-selects and all, again in every statement (SQL-language functions keep no plan). Under
-- `scripts/load-test` STORE=postgres that was 97% of PostgreSQL's time.
--
-- Now it is PL/pgSQL (its plan kept for the session) and SECURITY DEFINER: it applies the rule of
-- profiles_read itself, once per statement, with the same two lists (002600): the owner must be
-- one the caller sees (else no rows and a total of 0, as RLS gave), and each listed profile too
-- (a follows row shows only when both ends are seen: follows_read). The keyset scan then walks
-- the index in order and stops at the page's end. The rows, their order, the totals and the two
-- follow states are what 001100 returned: supabase/tests/12 and 23 say so.
--
-- The rows come from follow_page_rows, in plain columns: the PostgreSQL store decodes them as
-- they are (no JSON built here, none parsed in the gateway: building and parsing a 550-row
-- wave's JSON was most of the time left on both sides). follow_pages_with_states wraps them in
-- the JSON of 001100 for PostgREST (the Supabase store). follow_pages (000400) stays as it was,
-- for callers of the older entry point.
create or replace function public.follow_page_rows(requests jsonb)
returns table (
  request_index int, total_count int, follow_id uuid, follower_id uuid, followee_id uuid,
  follow_created_us bigint, viewer_follows boolean, follows_viewer boolean,
  id uuid, handle text, display_name text, bio text, photo_url text, home_gym text,
  climbing_since text, favorite_style text, is_public boolean, follower_count int, following_count int,
  send_count int, post_count int, created_us bigint, updated_us bigint
)
language plpgsql stable security definer set search_path = '' set jit = off as $$
#variable_conflict use_column
declare
  me uuid := auth.uid();
  followees uuid[] := social_private.viewer_private_followees();
  peers uuid[] := social_private.viewer_block_peers();
begin
  return query
  with req as (
    select (r.ord - 1)::int as idx,
           (r.value ->> 'owner')::uuid as owner,
           (r.value ->> 'kind') = 'following' as following,
           coalesce((r.value ->> 'backward')::boolean, false) as backward,
           timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond' as c_at,
           (r.value ->> 'cursor_id')::uuid as c_id,
           least(greatest(coalesce((r.value ->> 'limit')::int, 20), 0), 100) + 1 as fetch
    from jsonb_array_elements(requests) with ordinality as r(value, ord)
  ),
  -- Each request with its owner's counts when the caller sees the owner (profiles_read).
  owned as (
    select req.*, o.id is not null as seen,
           case when req.following then o.following_count else o.follower_count end as total
    from req left join public.profiles o
      on o.id = req.owner
     and (o.is_public or o.id = me or o.id = any (followees)) and not o.id = any (peers)
  )
  select owned.idx, coalesce(owned.total, 0), e.fid, e.follower_id, e.followee_id,
         (extract(epoch from e.created_at) * 1000000)::bigint,
         coalesce(exists (select 1 from public.follows v
                          where v.follower_id = me and v.followee_id = e.pid and v.deleted_at is null), false),
         coalesce(exists (select 1 from public.follows v
                          where v.follower_id = e.pid and v.followee_id = me and v.deleted_at is null), false),
         e.pid, e.handle, e.display_name, e.bio, e.photo_url, e.home_gym,
         to_char(e.climbing_since, 'YYYY-MM-DD'), e.favorite_style, e.is_public, e.follower_count, e.following_count,
         e.send_count, e.post_count,
         (extract(epoch from e.p_created_at) * 1000000)::bigint, (extract(epoch from e.p_updated_at) * 1000000)::bigint
  from owned
  left join lateral (
    select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
    from (
      (select f.* from public.follows f
       where not owned.following and not owned.backward and f.followee_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) < (coalesce(owned.c_at, 'infinity'), coalesce(owned.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
         and exists (select 1 from public.profiles x where x.id = f.follower_id
                     and (x.is_public or x.id = me or x.id = any (followees)) and not x.id = any (peers))
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.* from public.follows f
       where not owned.following and owned.backward and f.followee_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and exists (select 1 from public.profiles x where x.id = f.follower_id
                     and (x.is_public or x.id = me or x.id = any (followees)) and not x.id = any (peers))
       order by f.created_at, f.id limit owned.fetch)
      union all
      (select f.* from public.follows f
       where owned.following and not owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) < (coalesce(owned.c_at, 'infinity'), coalesce(owned.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
         and exists (select 1 from public.profiles x where x.id = f.followee_id
                     and (x.is_public or x.id = me or x.id = any (followees)) and not x.id = any (peers))
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.* from public.follows f
       where owned.following and owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and exists (select 1 from public.profiles x where x.id = f.followee_id
                     and (x.is_public or x.id = me or x.id = any (followees)) and not x.id = any (peers))
       order by f.created_at, f.id limit owned.fetch)
    ) f
    join public.profiles p on p.id = case when owned.following then f.followee_id else f.follower_id end
    where owned.seen
  ) e on true
  order by owned.idx,
           case when owned.backward then e.created_at end, case when owned.backward then e.fid end,
           e.created_at desc, e.fid desc;
end $$;
revoke execute on function public.follow_page_rows(jsonb) from public, anon;
grant execute on function public.follow_page_rows(jsonb) to authenticated;

-- 001100's rows and JSON, from the plain rows (PostgREST's callers, the Supabase store).
create or replace function public.follow_pages_with_states(requests jsonb)
returns table (
  request_index int, total_count int, follow_id uuid, follower_id uuid, followee_id uuid,
  follow_created_us bigint, profile jsonb, viewer_follows boolean, follows_viewer boolean
)
language plpgsql stable security invoker set search_path = '' set jit = off as $$
#variable_conflict use_column
begin
  return query
  select r.request_index, r.total_count, r.follow_id, r.follower_id, r.followee_id, r.follow_created_us,
         case when r.follow_id is null then null else jsonb_build_object(
           'id', r.id, 'handle', r.handle, 'display_name', r.display_name, 'bio', r.bio,
           'photo_url', r.photo_url, 'home_gym', r.home_gym, 'climbing_since', r.climbing_since,
           'favorite_style', r.favorite_style, 'is_public', r.is_public,
           'follower_count', r.follower_count, 'following_count', r.following_count,
           'created_at', timestamptz 'epoch' + r.created_us * interval '1 microsecond',
           'updated_at', timestamptz 'epoch' + r.updated_us * interval '1 microsecond',
           'send_count', r.send_count, 'post_count', r.post_count) end,
         r.viewer_follows, r.follows_viewer
  from public.follow_page_rows(requests) r;
end $$;

-- active_follows (000200) the same way: under RLS each pair's follows row paid follows_read's two
-- profiles sub-selects, which at this size PostgreSQL ran as two scans of the whole profiles
-- table per statement (1.8 ms a call under load). Now PL/pgSQL and definer, the rule of
-- follows_read spelled out with the two lists: a pair is listed when its follow is active and
-- the caller sees both of its profiles. Same rows as before (supabase/tests/05, 12 and 23).
create or replace function public.active_follows(pairs jsonb)
returns table (follower_id uuid, followee_id uuid)
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
declare
  me uuid := auth.uid();
  followees uuid[] := social_private.viewer_private_followees();
  peers uuid[] := social_private.viewer_block_peers();
begin
  return query
  select f.follower_id, f.followee_id
  from jsonb_to_recordset(pairs) as q(follower_id uuid, followee_id uuid)
  join public.follows f on f.follower_id = q.follower_id and f.followee_id = q.followee_id
  where f.deleted_at is null
    and exists (select 1 from public.profiles a where a.id = f.follower_id
                and (a.is_public or a.id = me or a.id = any (followees)) and not a.id = any (peers))
    and exists (select 1 from public.profiles b where b.id = f.followee_id
                and (b.is_public or b.id = me or b.id = any (followees)) and not b.id = any (peers));
end $$;
