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
-- follow_pages (000400) stays as it was, for callers of the older entry point.
create or replace function public.follow_pages_with_states(requests jsonb)
returns table (
  request_index int, total_count int, follow_id uuid, follower_id uuid, followee_id uuid,
  follow_created_us bigint, profile jsonb, viewer_follows boolean, follows_viewer boolean
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
  select owned.idx, coalesce(owned.total, 0), e.id, e.follower_id, e.followee_id,
         (extract(epoch from e.created_at) * 1000000)::bigint,
         e.profile,
         coalesce(exists (select 1 from public.follows v
                          where v.follower_id = me and v.followee_id = e.listed and v.deleted_at is null), false),
         coalesce(exists (select 1 from public.follows v
                          where v.follower_id = e.listed and v.followee_id = me and v.deleted_at is null), false)
  from owned
  left join lateral (
    select f.id, f.follower_id, f.followee_id, f.created_at, p.id as listed,
           jsonb_build_object(
             'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', p.bio,
             'photo_url', p.photo_url, 'home_gym', p.home_gym, 'climbing_since', p.climbing_since,
             'favorite_style', p.favorite_style, 'is_public', p.is_public,
             'follower_count', p.follower_count, 'following_count', p.following_count,
             'created_at', p.created_at, 'updated_at', p.updated_at, 'send_count', p.send_count,
             'post_count', p.post_count) as profile
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
           case when owned.backward then e.created_at end, case when owned.backward then e.id end,
           e.created_at desc, e.id desc;
end $$;
