-- social-gateway schema, part 28: a feed page, a level's comment pages and its follow states cost
-- their rows, not a new plan and the rule per row (issue 41).
--
-- What `scripts/load-test` (STORE=postgres) showed after 002700: a feed request cost about 17 ms
-- of PostgreSQL time, in three SQL-language invoker functions that PostgreSQL plans anew in every
-- statement (SQL-language functions keep no plan), each under RLS:
--   - feed_page_with_sources: 8.7 ms. Its feed_rows re-planned, follows_read seq-scanning the
--     profiles twice (a hashed sub-plan per end of each follows row), a profiles_read probe per
--     post, and the sources' own follows read under RLS again;
--   - comment_pages (20 posts, first 3 comments each): 4.7 ms, mostly planning.
--
-- Now feed_rows, feed_page_with_sources and comment_pages are PL/pgSQL (plans kept for the
-- session) and SECURITY DEFINER, applying profiles_read's rule themselves with the same two lists
-- (002600), as follow_page_rows does (002700):
--   - the feed: the caller's own posts and those of the profiles the caller actively follows,
--     less anyone blocked either way. An active follow makes a private followee seen (it is in
--     viewer_private_followees), so the block is the only part of the rule left to test. The
--     caller's likes are the caller's own rows.
--   - comments: a page of a post whose author the caller sees (else no rows and a count of 0, as
--     RLS gave), each comment by an author the caller sees (comments_read).
-- Measured on the load test's data (1,000 profiles, 50 follows and 5 posts each), 200 calls in a
-- loop: a feed page 10.1 ms -> 1.1 ms; 40 posts' first comments 7.8 ms -> 2.3 ms.
--
-- Then active_follows (002700's PL/pgSQL definer), the costliest statement of a feed after those:
-- its kept generic plan expects 100 pairs and hashes a seq scan of all profiles for each end, and
-- it read the viewer's private followees on every call though only private profiles need them.
-- It now probes the indexes pair by pair (hash and merge joins off for its one statement) and
-- reads the followees only when a private profile is met: 20 pairs, 1.8 ms -> 0.4 ms.
--
-- Each body keeps the caller and the lists as uncorrelated sub-selects (run once per statement,
-- as InitPlans) rather than PL/pgSQL variables, so its `return query` statement is plain SQL that
-- supabase/tests/15 can lift out and EXPLAIN, as it did the SQL-language bodies: the keyset stays
-- the index condition of each walk. What callers get is unchanged: supabase/tests/15, 16, 19 and
-- 20 say so.

-- ============ the feed ============
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
          and not f.followee_id = any ((select social_private.viewer_block_peers())::uuid[])) as a
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
revoke execute on function social_private.feed_rows(bigint, uuid, int) from public;
grant execute on function social_private.feed_rows(bigint, uuid, int) to authenticated;

-- The page and the caller's active follows (the feed's sources, for the cache's tags), as 001800
-- returned them; anonymous callers get feed_page's error.
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
                           and not x.followee_id = any ((select social_private.viewer_block_peers())::uuid[])), '[]'::jsonb));
end $$;
revoke execute on function public.feed_page_with_sources(bigint, uuid, int) from public;
grant execute on function public.feed_page_with_sources(bigint, uuid, int) to anon, authenticated;

-- ============ comments ============
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
              and (a.is_public or a.id = (select auth.uid())
                   or a.id = any ((select social_private.viewer_private_followees())::uuid[]))
              and not a.id = any ((select social_private.viewer_block_peers())::uuid[])) as comment_count
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
                   and (w.is_public or w.id = (select auth.uid())
                        or w.id = any ((select social_private.viewer_private_followees())::uuid[]))
                   and not w.id = any ((select social_private.viewer_block_peers())::uuid[]))
     order by c.created_at, c.id limit v.fetch)
    union all
    (select c.id, c.created_at, public.comment_json(c)
     from public.comments c
     where v.comment_count is not null and v.backward and c.post_id = v.post
       and (c.created_at, c.id) < (v.before_at, v.before_id)
       and exists (select 1 from public.profiles w where w.id = c.author_id
                   and (w.is_public or w.id = (select auth.uid())
                        or w.id = any ((select social_private.viewer_private_followees())::uuid[]))
                   and not w.id = any ((select social_private.viewer_block_peers())::uuid[]))
     order by c.created_at desc, c.id desc limit v.fetch)
  ) e on true
  order by v.idx,
           case when v.backward then e.created_at end desc, case when v.backward then e.id end desc,
           e.created_at, e.id;
end $$;
revoke execute on function public.comment_pages(jsonb) from public;
grant execute on function public.comment_pages(jsonb) to anon, authenticated;

-- ============ follow states ============
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
    and (a.is_public or a.id = me or a.id = any ((select social_private.viewer_private_followees())::uuid[]))
    and not a.id = any (peers)
    and (b.is_public or b.id = me or b.id = any ((select social_private.viewer_private_followees())::uuid[]))
    and not b.id = any (peers);
end $$;
