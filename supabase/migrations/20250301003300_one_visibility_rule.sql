-- social-gateway schema, part 33: "viewer sees profile" written once (issue 52, part 3).
--
-- The rule (issue 52's decision; SocialDomain's ProfileAccess): V sees P whole when V = P,
-- or when neither blocks the other and P is public or V actively follows P. Until now its text
-- stood in a dozen places: profiles_read (002600), viewer_sees (002600, with EXISTS probes),
-- follow_page_rows (002900, five times), active_follows and comment_pages (002800, two and three
-- times), and as "not blocked" in feed_rows, feed_page_with_sources, profile_cards and
-- suggested_profiles. Each was the same words, and each had to be found again when the rule moved.
--
-- Now the rule is one function, social_private.sees_profile, and every policy and definer body
-- that decides it calls that function:
--   - It is LANGUAGE sql, IMMUTABLE, not SECURITY DEFINER, with no SET clause and a single SELECT
--     of one expression: PostgreSQL inlines such a function into the statement that calls it
--     (the planner replaces the call by its expression), so it costs what the spelled-out text
--     cost, no function call per row. A definer or a SET clause would stop the inlining.
--   - It reads no table: what it needs of the graph comes as arguments, the two lists of 002600
--     (viewer_private_followees, viewer_block_peers), which a statement computes once (an
--     InitPlan, or a PL/pgSQL variable) and the rule then probes per row. Reading follows or
--     blocks inside would make it a sub-select, which PostgreSQL does not inline.
--   - Its contract for the lists: `viewer_follows` holds profiles the viewer actively follows,
--     and among them every private one the caller asks about (a public one is seen anyway);
--     `viewer_block_peers` holds every profile blocked either way among those asked about.
--     viewer_private_followees() and viewer_block_peers() are the whole lists; a caller that
--     asks about one profile may pass just that profile's follow and block (viewer_sees does).
--
-- The edge rule (a follow A -> B is shown when the viewer sees A and sees B) is this function at
-- both ends: follows_read lets profiles_read (this function) decide each end; active_follows and
-- follow_page_rows call it for the follower and the followee. It has no function of its own: a
-- second function taking both ends would use the lists twice, and PostgreSQL does not inline a
-- function whose argument used twice is a sub-select (the policies' lists are).
--
-- Redefined, each with the same rows as before (supabase/tests 02, 05, 11, 12, 15, 16, 19, 20,
-- 23, 24 say so; 26 says the rule inlines and is the only text): viewer_sees, the profiles_read
-- policy, follow_page_rows, active_follows, comment_pages, feed_rows, feed_page_with_sources,
-- profile_cards (now PL/pgSQL: its plan is kept), suggested_profiles. Not redefined here: the
-- follow and request functions (they ask viewer_sees, which now calls the rule), search and
-- followed_by_viewer_following (invoker: RLS, so profiles_read, decides).
-- Measured (docs/performance/2026-12-02-sql-one-rule.md): no read path slower.
--
-- And one fix the one-file schema (supabase/schema/current.sql) showed: post_likes_delete_own
-- still held 001400's rule, so an approved follower could not take back a like (end of file).

-- ============ the rule ============
create or replace function social_private.sees_profile(
  viewer uuid, viewer_follows uuid[], viewer_block_peers uuid[], target uuid, target_public boolean)
returns boolean
language sql immutable parallel safe as $$
  select coalesce((target_public or target = viewer or target = any (viewer_follows))
                  and not target = any (viewer_block_peers), false)
$$;
comment on function social_private.sees_profile(uuid, uuid[], uuid[], uuid, boolean) is
  'The visibility rule, the only place its text is: the viewer sees target whole when it is the viewer, or when neither blocks the other and target is public or followed. Inlined by the planner; the lists come from the caller (viewer_private_followees(), viewer_block_peers(), or the one target''s rows).';
-- Policies run as the caller, and the planner inlines a function only for a role that may
-- execute it: anon and authenticated need EXECUTE (policies reach it by oid: no USAGE needed).
revoke execute on function social_private.sees_profile(uuid, uuid[], uuid[], uuid, boolean) from public;
grant execute on function social_private.sees_profile(uuid, uuid[], uuid[], uuid, boolean) to anon, authenticated;

-- ============ the definer wrapper, for one profile at a time ============
-- Asked about one profile, the lists are that profile's own rows: one probe of follows and one of
-- blocks, as 002600's body did, instead of the viewer's whole lists.
create or replace function public.viewer_sees(target uuid, target_public boolean) returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  me constant uuid := auth.uid();
begin
  return social_private.sees_profile(
    me,
    array(select f.followee_id from public.follows f
          where f.follower_id = me and f.followee_id = target and f.deleted_at is null),
    array(select target from public.blocks b
          where (b.blocker_id = me and b.blocked_id = target) or (b.blocker_id = target and b.blocked_id = me)),
    target, target_public);
end $$;

-- ============ profiles_read ============
-- The lists as uncorrelated sub-selects: InitPlans, run once per statement.
alter policy profiles_read on public.profiles
  using (social_private.sees_profile(
           (select auth.uid()), (select social_private.viewer_private_followees()),
           (select social_private.viewer_block_peers()), id, is_public));

-- ============ follow pages ============
-- 002900's body; the owner and each listed profile now pass the rule (the edge rule: the list's
-- owner is one end of each follow, the listed profile the other).
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
  -- Each request with its owner's counts when the caller sees the owner.
  owned as (
    select req.*, o.id is not null as seen,
           case when req.following then o.following_count else o.follower_count end as total
    from req left join public.profiles o
      on o.id = req.owner and social_private.sees_profile(me, followees, peers, o.id, o.is_public)
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
         and social_private.sees_profile(me, followees, peers, p.id, p.is_public)
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.follower_id
       where not owned.following and owned.backward and f.followee_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and social_private.sees_profile(me, followees, peers, p.id, p.is_public)
       order by f.created_at, f.id limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.followee_id
       where owned.following and not owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) < (coalesce(owned.c_at, 'infinity'), coalesce(owned.c_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
         and social_private.sees_profile(me, followees, peers, p.id, p.is_public)
       order by f.created_at desc, f.id desc limit owned.fetch)
      union all
      (select f.id as fid, f.follower_id, f.followee_id, f.created_at, p.id as pid, p.handle, p.display_name, p.bio,
           p.photo_url, p.home_gym, p.climbing_since, p.favorite_style, p.is_public, p.follower_count,
           p.following_count, p.send_count, p.post_count, p.created_at as p_created_at, p.updated_at as p_updated_at
       from public.follows f join public.profiles p on p.id = f.followee_id
       where owned.following and owned.backward and f.follower_id = owned.owner and f.deleted_at is null
         and (f.created_at, f.id) > (coalesce(owned.c_at, '-infinity'), coalesce(owned.c_id, '00000000-0000-0000-0000-000000000000'))
         and social_private.sees_profile(me, followees, peers, p.id, p.is_public)
       order by f.created_at, f.id limit owned.fetch)
    ) b where owned.seen
  ) e on true
  order by owned.idx,
           case when owned.backward then e.created_at end, case when owned.backward then e.fid end,
           e.created_at desc, e.fid desc;
end $$;

-- ============ follow states ============
-- 002800's body: a pair is listed when its follow is active and the caller sees both ends. The
-- followees stay a sub-select, read only when a private profile is met (an InitPlan runs when
-- first needed; the rule tests is_public first).
create or replace function public.active_follows(pairs jsonb)
returns table (follower_id uuid, followee_id uuid)
language plpgsql stable security definer set search_path = '' set jit = off
  set enable_hashjoin = off set enable_mergejoin = off as $$
#variable_conflict use_column
declare
  me constant uuid := auth.uid();
  peers constant uuid[] := social_private.viewer_block_peers();
begin
  return query
  select f.follower_id, f.followee_id
  from jsonb_to_recordset(pairs) as q(follower_id uuid, followee_id uuid)
  join public.follows f on f.follower_id = q.follower_id and f.followee_id = q.followee_id
  join public.profiles a on a.id = f.follower_id
  join public.profiles b on b.id = f.followee_id
  where f.deleted_at is null
    and social_private.sees_profile(me, (select social_private.viewer_private_followees()), peers, a.id, a.is_public)
    and social_private.sees_profile(me, (select social_private.viewer_private_followees()), peers, b.id, b.is_public);
end $$;

-- ============ comments ============
-- 002800's body; the post's author and each comment's author pass the rule.
create or replace function public.comment_pages(requests jsonb)
returns table (request_index int, total_count int, comment jsonb)
language plpgsql stable security definer set search_path = '' set jit = off as $$
#variable_conflict use_column
begin
  return query
  with req as materialized (
    select (r.ord - 1)::int as idx,
           (r.value ->> 'post')::uuid as post,
           coalesce((r.value ->> 'backward')::boolean, false) as backward,
           -- the keyset's bounds, open when no cursor was given
           coalesce(timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond', 'infinity') as before_at,
           coalesce((r.value ->> 'cursor_id')::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff') as before_id,
           coalesce(timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond', '-infinity') as after_at,
           coalesce((r.value ->> 'cursor_id')::uuid, '00000000-0000-0000-0000-000000000000') as after_id,
           least(greatest(coalesce((r.value ->> 'limit')::int, 20), 0), 100) + 1 as fetch
    from jsonb_array_elements(requests) with ordinality as r(value, ord)
  ), seen as materialized (
    -- each requested post's comment count, null when the caller does not see its author
    select req.*,
           (select p.comment_count from public.posts p join public.profiles a on a.id = p.author_id
            where p.id = req.post
              and social_private.sees_profile(
                    (select auth.uid()), (select social_private.viewer_private_followees()),
                    (select social_private.viewer_block_peers()), a.id, a.is_public)) as comment_count
    from req
  )
  select v.idx, coalesce(v.comment_count, 0), e.comment
  from seen v
  left join lateral (
    (select c.id, c.created_at, public.comment_json(c) as comment
     from public.comments c
     where v.comment_count is not null and not v.backward and c.post_id = v.post
       and (c.created_at, c.id) > (v.after_at, v.after_id)
       and exists (select 1 from public.profiles w where w.id = c.author_id
                   and social_private.sees_profile(
                         (select auth.uid()), (select social_private.viewer_private_followees()),
                         (select social_private.viewer_block_peers()), w.id, w.is_public))
     order by c.created_at, c.id limit v.fetch)
    union all
    (select c.id, c.created_at, public.comment_json(c)
     from public.comments c
     where v.comment_count is not null and v.backward and c.post_id = v.post
       and (c.created_at, c.id) < (v.before_at, v.before_id)
       and exists (select 1 from public.profiles w where w.id = c.author_id
                   and social_private.sees_profile(
                         (select auth.uid()), (select social_private.viewer_private_followees()),
                         (select social_private.viewer_block_peers()), w.id, w.is_public))
     order by c.created_at desc, c.id desc limit v.fetch)
  ) e on true
  order by v.idx,
           case when v.backward then e.created_at end desc, case when v.backward then e.id end desc,
           e.created_at, e.id;
end $$;

-- ============ the feed ============
-- The feed's sources are the caller and the profiles the caller actively follows. Each source is
-- asked with its own follow as the follow list (the rule's contract: the target followed, so its
-- is_public does not matter), which leaves the block to decide, as 002800's body did without
-- naming the rule, and reads no profile row.
create or replace function social_private.feed_rows(after_us bigint, after_id uuid, page_size int)
returns table (post jsonb, viewer_has_liked boolean)
language plpgsql stable security definer set search_path = '' set jit = off as $$
begin
  return query
  select public.post_json(p.post_row),
         exists (select 1 from public.post_likes l
                 where l.post_id = p.id and l.profile_id = (select auth.uid()))
  from (select (select auth.uid()) as author_id
        union all
        select f.followee_id from public.follows f
        where f.follower_id = (select auth.uid()) and f.deleted_at is null
          and social_private.sees_profile((select auth.uid()), array[f.followee_id],
                                          (select social_private.viewer_block_peers()), f.followee_id, null)) as a
  cross join lateral (
    select q as post_row, q.id, q.created_at from public.posts q
    where q.author_id = a.author_id
      and (q.created_at, q.id) < (case when after_us is null then timestamptz 'infinity'
                                       else timestamptz 'epoch' + after_us * interval '1 microsecond' end,
                                  case when after_id is null then uuid 'ffffffff-ffff-ffff-ffff-ffffffffffff'
                                       else after_id end)
    order by q.created_at desc, q.id desc
    limit least(greatest(page_size, 1), 101)
  ) as p
  order by p.created_at desc, p.id desc
  limit least(greatest(page_size, 1), 101);
end $$;

create or replace function public.feed_page_with_sources(after_us bigint default null, after_id uuid default null, page_size int default 21)
returns jsonb
language plpgsql stable security definer set search_path = '' set jit = off as $$
begin
  if auth.uid() is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_feed';
  end if;
  return jsonb_build_object(
    'posts', coalesce((select jsonb_agg(jsonb_build_object('post', f.post, 'viewer_has_liked', f.viewer_has_liked) order by f.n)
                       from social_private.feed_rows(after_us, after_id, page_size) with ordinality as f(post, viewer_has_liked, n)), '[]'::jsonb),
    'sources', coalesce((select jsonb_agg(x.followee_id order by x.followee_id)
                         from public.follows x
                         where x.follower_id = (select auth.uid()) and x.deleted_at is null
                           and social_private.sees_profile((select auth.uid()), array[x.followee_id],
                                                           (select social_private.viewer_block_peers()), x.followee_id, null)),
                        '[]'::jsonb));
end $$;

-- ============ cards ============
-- A card is what a signed-in caller gets of a profile they do not see whole and that is not
-- blocked either way (SocialDomain's ProfileAccess). PL/pgSQL now, so its plan is kept for the
-- session (a SQL-language function is planned on every call); the lists once per call.
create or replace function public.profile_cards(ids uuid[] default '{}', handles text[] default '{}')
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  me constant uuid := auth.uid();
  peers constant uuid[] := social_private.viewer_block_peers();
begin
  if me is null then
    return '[]'::jsonb;
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
        'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', null, 'photo_url', p.photo_url,
        'home_gym', null, 'climbing_since', null, 'favorite_style', null, 'is_public', p.is_public,
        'follower_count', p.follower_count, 'following_count', p.following_count, 'created_at', p.created_at,
        'updated_at', p.updated_at, 'send_count', p.send_count, 'post_count', p.post_count, 'card', true)), '[]'::jsonb)
    from public.profiles p
    where (p.id = any (coalesce(ids, '{}')) or p.handle_lower = any (coalesce(handles, '{}')))
      and not social_private.sees_profile(me, (select social_private.viewer_private_followees()), peers, p.id, p.is_public)
      and not p.id = any (peers));
end $$;

-- ============ suggestions ============
-- 002400's body; a candidate must be public and seen (for a public profile: not blocked either
-- way), which the rule now says instead of a blocks probe per candidate.
create or replace function public.suggested_profiles(page_size int)
returns table (total_count int, profile jsonb)
language plpgsql stable security definer set search_path = '' set jit = off as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=view_suggestions';
  end if;
  return query
  -- Bounded (SocialDomain's SuggestionBounds): the caller's 200 most recent follows (following
  -- implies seeing them, a block having removed the follows), each one's 100 most recent, by
  -- follows_follower_page_idx: at most 20,000 paths whoever asks.
  with mid as (
    select f.followee_id as id from public.follows f
    where f.follower_id = me and f.deleted_at is null
    order by f.created_at desc, f.id desc limit 200
  ), paths as (
    select s.followee_id as id, count(*) as mutuals
    from mid cross join lateral (
      select h.followee_id from public.follows h
      where h.follower_id = mid.id and h.deleted_at is null
      order by h.created_at desc, h.id desc limit 100) s
    group by s.followee_id
  )
  -- Ranked on ids and counters first: only the page's rows are written out as JSON.
  , ranked as (
    select r.id, r.mutuals, p.follower_count, count(*) over () as total
    from paths r
    join public.profiles p on p.id = r.id and p.is_public
    where r.id <> me
      and social_private.sees_profile(me, '{}', (select social_private.viewer_block_peers()), p.id, p.is_public)
      and not exists (select 1 from public.follows o
                      where o.follower_id = me and o.followee_id = r.id and o.deleted_at is null)
      and not exists (select 1 from public.follow_requests q
                      where q.requester_id = me and q.target_id = r.id and q.status = 'pending')
    order by r.mutuals desc, p.follower_count desc, r.id
    limit least(greatest(page_size, 1), 100)
  )
  select k.total::int, public.profile_json(p)
  from ranked k join public.profiles p on p.id = k.id
  order by k.mutuals desc, k.follower_count desc, k.id;
end $$;

-- ============ removing one's like ============
-- 002600 moved every policy onto profiles_read but this one, which kept 001400's rule (the
-- author public or the caller): an approved follower of a private profile could like its posts
-- (post_likes_insert_own) but not remove the like, so toggle_like's second call failed on the
-- like's key (23505) and set_like(false) changed nothing. Now the post's author decides through
-- profiles_read, as for the insert.
alter policy post_likes_delete_own on public.post_likes
  using (
    profile_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = post_likes.post_id));
