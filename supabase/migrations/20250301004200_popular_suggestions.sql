-- Issue 54: suggestions for a viewer who follows nobody yet. Friends of friends (002400, 003300)
-- need a follow to start from, so such a viewer got an empty list. Now, when the caller has no
-- active follow, the candidates are the most followed public profiles instead (SocialDomain's
-- SuggestionBounds.popularProfiles: the 200 most followed, by profiles_popular_idx, so a call
-- costs the same whoever asks), by the same rule (SocialRules.isSuggestible: public, not the
-- caller, not followed, not asked, no block either way), most followers first, then id. total
-- counts the suggestible ones among those 200. A caller who follows anyone gets 003300's
-- friends of friends, unchanged.
create index if not exists profiles_popular_idx on public.profiles (follower_count desc, id) where is_public;

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
  if not exists (select 1 from public.follows f where f.follower_id = me and f.deleted_at is null) then
    -- Following nobody yet: the most followed public profiles (they follow nobody, so "not
    -- followed" holds; pending requests are to private profiles, never candidates, but the rule
    -- is checked as written).
    return query
    with popular as (
      select p.id, p.follower_count from public.profiles p
      where p.is_public
      order by p.follower_count desc, p.id limit 200
    ), ranked as (
      select c.id, c.follower_count, count(*) over () as total
      from popular c
      where c.id <> me
        and social_private.sees_profile(me, '{}', (select social_private.viewer_block_peers()), c.id, true)
        and not exists (select 1 from public.follow_requests q
                        where q.requester_id = me and q.target_id = c.id and q.status = 'pending')
      order by c.follower_count desc, c.id
      limit least(greatest(page_size, 1), 100)
    )
    select k.total::int, public.profile_json(p)
    from ranked k join public.profiles p on p.id = k.id
    order by k.follower_count desc, k.id;
    return;
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
