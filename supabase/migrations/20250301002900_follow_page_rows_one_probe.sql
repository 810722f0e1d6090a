-- social-gateway schema, part 29: one probe of profiles per listed follow, not two (issue 41).
--
-- follow_page_rows (002700) tested each keyset row's listed profile with `exists (select 1 from
-- profiles x where x.id = ... and <rule>)` inside the walk (so that the rule applies before the
-- page's LIMIT), then joined the same profiles row again for its columns outside it: two index
-- probes of one row per listed follow. Now each walk joins the profile once, the rule in the
-- join, and takes its columns from there; the walk still stops at the page's end (the join is
-- inside the limited branch), and the rows, order, totals and states are unchanged
-- (supabase/tests/12, 15 and 23).
--
-- Measured: 300 calls in one session of a wave of 50 following pages of 10 (396 rows, as a
-- random follower graph's third wave asks), backend CPU per call 6.4-7.0 ms -> 5.2-5.7 ms.
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
    select * from (
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.follower_id
       where not owned.following and not owned.backward and f.followee_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) < (coalesce(owned.c_at, 'infinity'), coalesce(owned.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
         and (p.is_public or p.id = me or p.id = any (followees)) and not p.id = any (peers)
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.follower_id
       where not owned.following and owned.backward and f.followee_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and (p.is_public or p.id = me or p.id = any (followees)) and not p.id = any (peers)
       order by f.created_at, f.id limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.followee_id
       where owned.following and not owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) < (coalesce(owned.c_at, 'infinity'), coalesce(owned.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
         and (p.is_public or p.id = me or p.id = any (followees)) and not p.id = any (peers)
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.followee_id
       where owned.following and owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and (p.is_public or p.id = me or p.id = any (followees)) and not p.id = any (peers)
       order by f.created_at, f.id limit owned.fetch)
    ) b where owned.seen
  ) e on true
  order by owned.idx,
           case when owned.backward then e.created_at end, case when owned.backward then e.fid end,
           e.created_at desc, e.fid desc;
end $$;
