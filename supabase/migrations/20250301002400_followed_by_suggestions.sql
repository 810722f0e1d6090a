-- social-gateway schema, part 25: two hops of the follow graph (issue 40): "followed by people
-- you follow" on profile cards, and friends-of-friends suggestions.
--
-- Only active follows count (deleted_at null). Visibility is the policies' (profiles_read,
-- follows_read): a follow exists for the caller only between profiles the caller may see, so a
-- path through a private profile counts for nobody but its owner, and a private profile is
-- never listed to anyone else. Both are for signed-in callers only, like the other list
-- functions since 002000.

-- ============ an index both walks read alone ============
-- The active pairs by follower, covering: the follows of the caller's follows come from an
-- index-only scan, one range per middle profile, with no heap visit once the visibility map is
-- set; the caller's own follows are probed on it too. (When the walk covers most of the table,
-- a million rows for a caller who follows 1,000 profiles that follow 1,000 each, the planner
-- rightly prefers one sequential scan: see "Suggestions and followed-by" in docs/SERVER.md.)
create index if not exists follows_active_pair_idx on public.follows (follower_id, followee_id) where deleted_at is null;
-- Suggestions walk each middle profile's most recent follows: newest first, the followee in the
-- index, so the walk reads no heap page.
create index if not exists follows_follower_recent_idx on public.follows (follower_id, created_at desc, id desc)
  include (followee_id) where deleted_at is null;

-- ============ followed_by_viewer_following ============
-- For each profile of `profile_ids` (a query level's profile cards; request_index is its
-- position, from 0): the profiles the caller follows who follow it, most followed first
-- (follower_count desc, then id), at most page_size of them (clamped to 1..100; the gateway
-- asks one at least so that an empty page still carries the count), each row with total_count,
-- the count of them all; a profile with none has one row with a null profile and 0.
-- Invoker: follows_read and profiles_read filter every row, as for the caller's own reads. The
-- caller's follows come from follows_follower_page_idx, each probed on follows_pair_key for a
-- follow of the profile: one probe per profile the caller follows, per card.
create or replace function public.followed_by_viewer_following(profile_ids uuid[], page_size int)
returns table (request_index int, total_count int, profile jsonb)
language sql stable security invoker set search_path = '' set jit = off as $$
  select (r.ord - 1)::int, coalesce(m.total, 0)::int, m.profile
  from unnest(profile_ids) with ordinality as r(id, ord)
  left join lateral (
    select count(*) over () as total, public.profile_json(p) as profile, p.follower_count, p.id
    from public.follows v
    join public.follows s on s.follower_id = v.followee_id and s.followee_id = r.id and s.deleted_at is null
    join public.profiles p on p.id = v.followee_id
    where v.follower_id = (select auth.uid()) and v.deleted_at is null
    order by p.follower_count desc, p.id
    limit least(greatest(page_size, 1), 100)
  ) m on true
  order by r.ord, m.follower_count desc, m.id
$$;
revoke execute on function public.followed_by_viewer_following(uuid[], int) from public, anon;
grant execute on function public.followed_by_viewer_following(uuid[], int) to authenticated;

-- ============ suggested_profiles ============
-- Friends of friends for the caller: public profiles followed by the public profiles the caller
-- follows, without the caller and the profiles the caller already follows, ranked by how many
-- of the caller's follows follow them (desc), then follower_count (desc), then id. At most
-- page_size rows (clamped to 1..100), each with total_count, how many suggestions there are in
-- all; none when there are none. Anonymous callers: authentication_required
-- (action=view_suggestions), as the domain words it.
--
-- Definer, with the visibility written out: through RLS each of the up to a million follows of
-- the caller's follows would cost follows_read's two probes of profiles, and no index-only
-- scan. The rules are the policies' for these rows: a middle profile is one the caller follows
-- (so sees, migration 002300), a suggestion only public (private profiles are never suggested),
-- never one the caller has asked to follow or that is blocked either way, and only active
-- follows count. It returns only public profiles the caller may see.
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
      and not exists (select 1 from public.follows o
                      where o.follower_id = me and o.followee_id = r.id and o.deleted_at is null)
      and not exists (select 1 from public.follow_requests q
                      where q.requester_id = me and q.target_id = r.id and q.status = 'pending')
      and not exists (select 1 from public.blocks b
                      where (b.blocker_id = me and b.blocked_id = r.id) or (b.blocker_id = r.id and b.blocked_id = me))
    order by r.mutuals desc, p.follower_count desc, r.id
    limit least(greatest(page_size, 1), 100)
  )
  select k.total::int, public.profile_json(p)
  from ranked k join public.profiles p on p.id = k.id
  order by k.mutuals desc, k.follower_count desc, k.id;
end $$;
revoke execute on function public.suggested_profiles(int) from public;
grant execute on function public.suggested_profiles(int) to anon, authenticated;
