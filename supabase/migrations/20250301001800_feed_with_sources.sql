-- social-gateway schema, part 19: the feed and its sources in one call (issue 19: "on Supabase the
-- feed is one RPC").
--
-- A gateway caches a feed page and must drop it when anyone it draws from posts, so with the
-- page it needs the profiles the feed draws from: the caller and the profiles the caller
-- actively follows. feed_page returns posts only; a second request for the follows would make
-- every feed two round trips (seed 003's two-step filter, which the issue rules out). This
-- wraps both in one invoker function: the posts exactly as feed_page returns them (in its
-- order), and the ids of the caller's active follows under follows' RLS (whose own policy
-- already hides follows of profiles the caller may not see: their posts are hidden too).
create or replace function public.feed_page_with_sources(after_us bigint default null, after_id uuid default null,
                                                         page_size int default 21)
returns jsonb
language sql stable security invoker set search_path = '' set jit = off as $$
  select jsonb_build_object(
    'posts', coalesce((select jsonb_agg(jsonb_build_object('post', f.post, 'viewer_has_liked', f.viewer_has_liked) order by f.n)
                       from public.feed_page(after_us, after_id, page_size) with ordinality as f(post, viewer_has_liked, n)), '[]'::jsonb),
    'sources', coalesce((select jsonb_agg(x.followee_id order by x.followee_id)
                         from public.follows x where x.follower_id = (select auth.uid()) and x.deleted_at is null), '[]'::jsonb))
$$;
revoke execute on function public.feed_page_with_sources(bigint, uuid, int) from public;
grant execute on function public.feed_page_with_sources(bigint, uuid, int) to anon, authenticated;
