-- social-gateway schema, part 25: the seeds' last rules (issue 40).
--
--   1. set_like(target, liked): `like` and `unlike` beside toggle_like, safe to repeat. A like of
--      a post already liked, or an unlike of one not liked, writes no row, so the counter and the
--      activity trigger (002200: a `liked` activity is a post_likes INSERT) do not move.
--   2. search_profiles_ranked: seed 000's search ranked as a user expects, an exact handle first,
--      then handles starting with the query, then the rest; search_profiles stays as it was for
--      gateways still running the old order.
--
-- Errors are conditions, as 002100 made them: message = hint = the condition's code.

-- ============ 1. set_like ============
-- Sets the caller's like on a post and returns {liked, like_count, changed}. Invoker like
-- toggle_like: the post must be visible to the caller (posts_read), the write goes through
-- post_likes' own policies, and the (post, caller) pair is locked first, so concurrent calls of
-- the same pair (a retried request, two devices) see each other's result and none fails on the
-- primary key.
create or replace function public.set_like(target uuid, liked boolean) returns jsonb
language plpgsql volatile security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
  written int;
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=like_posts';
  end if;
  if set_like.liked is null then
    raise exception 'invalid_like' using errcode = '22023', hint = 'invalid_like', detail = 'liked';
  end if;
  if not exists (select 1 from public.posts p where p.id = target) then  -- hidden or missing
    raise exception 'post_not_found' using errcode = 'PT404', hint = 'post_not_found';
  end if;
  perform social_private.lock_like_pair(target, me);
  if set_like.liked then
    insert into public.post_likes (post_id, profile_id)
    select target, me
    where not exists (select 1 from public.post_likes l where l.post_id = target and l.profile_id = me);
  else
    delete from public.post_likes l where l.post_id = target and l.profile_id = me;
  end if;
  get diagnostics written = row_count;
  return jsonb_build_object(
    'liked', set_like.liked,
    'like_count', (select p.like_count from public.posts p where p.id = target),
    'changed', written > 0);
end $$;

revoke execute on function public.set_like(uuid, boolean) from public;
-- anon may call it to be told "sign in" (PT401), as toggle_like.
grant execute on function public.set_like(uuid, boolean) to anon, authenticated;

-- ============ 2. search_profiles_ranked ============
-- Seed 000's search (public profiles whose handle or display name matches `pattern`, an ILIKE
-- pattern the gateway escaped), ranked: 0 when the lower-case handle is `query_key` (the query
-- in lower case), 1 when it starts with it, 2 otherwise; then lower-case handle, then id.
-- Strictly after the keyset (after_rank, after_handle, after_id) when given. A new name rather
-- than an overload of search_profiles: PostgREST picks a function by its argument names, and a
-- gateway of the old order keeps calling search_profiles during a rolling upgrade.
--
-- Cost: the ILIKE '%...%' already reads every public profile that matches; the rank is one
-- comparison per match, and the sort is over the matches of the page's rank and after.
create or replace function public.search_profiles_ranked(
  pattern text, query_key text, after_rank int default null, after_handle text default null,
  after_id uuid default null, page_size int default 21
) returns setof public.profiles
language sql stable security invoker set search_path = '' as $$
  select p.* from public.profiles p
  cross join lateral (
    select case when p.handle_lower = query_key then 0
                when starts_with(p.handle_lower, query_key) then 1
                else 2 end as rank
  ) r
  where p.is_public
    and (p.handle ilike pattern escape '\' or p.display_name ilike pattern escape '\')
    and (r.rank, p.handle_lower, p.id)
        > (coalesce(after_rank, -1), coalesce(after_handle, ''), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
  order by r.rank, p.handle_lower, p.id
  limit least(greatest(page_size, 0), 101)
$$;

-- Signed-in callers only, as search_profiles since 002000 (the gateway's SearchProfiles needs a
-- viewer; anon is refused, 42501).
revoke execute on function public.search_profiles_ranked(text, text, int, text, uuid, int) from public, anon;
grant execute on function public.search_profiles_ranked(text, text, int, text, uuid, int) to authenticated;
