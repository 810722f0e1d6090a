-- social-gateway schema, part 17: the functions the gateway calls for posts, comments, likes,
-- stories and the feed (issue 19).
--
-- As for follows (000200), the reads are STABLE and SECURITY INVOKER, so row-level security
-- decides what each caller sees exactly as for a table read, and each one answers a whole
-- query level (the first page of posts of many profiles, of comments of many posts) in one
-- request. Their keyset conditions are row comparisons on (created_at, id); cursor times are
-- integer microseconds since 1970 UTC, compared exactly. Under RLS a condition becomes an index
-- condition only if the planner can prove it leaks nothing before the policy has filtered the
-- row, and it counts a COALESCE, or a jsonb operator, as possibly leaking: written over the
-- request's values directly (as follow_pages does), the row comparison is merely a filter on a
-- scan from the author's newest post, and a deep page reads every newer row first. So the
-- bounds are computed beforehand, in a MATERIALIZED CTE of plain values (CASE, not COALESCE, in
-- feed_rows), and the plans of 15_feed_test show them as index conditions. JIT is
-- off for the batched reads for follow_pages' reason (000400): their plans are made per call,
-- the policies' probes lift the estimates past jit_above_cost, and compiling costs far more
-- than the few hundred index reads they do.
--
-- Anonymous callers: feed_page, active_stories and toggle_like raise PT401 with hint
-- `authentication_required` (the follow mutations' convention); post_not_found is PT404.

-- ============ JSON of a row, the keys of the gateway's decoders ============
create or replace function public.post_json(p public.posts) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id, 'author_id', p.author_id, 'content', p.content, 'image_urls', p.image_urls,
    'like_count', p.like_count, 'comment_count', p.comment_count,
    'created_at', p.created_at, 'updated_at', p.updated_at)
$$;

create or replace function public.comment_json(c public.comments) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', c.id, 'post_id', c.post_id, 'author_id', c.author_id, 'content', c.content,
    'created_at', c.created_at)
$$;

-- ============ post_pages: one page of posts for each of many profiles ============
-- `requests` is a JSON array of {author, backward, cursor_us, cursor_id, limit}; each yields up
-- to limit + 1 posts (limit clamped to 0..100) of that author that the caller may see: newest
-- first strictly older than the cursor, or, backward, the ones strictly newer than the cursor,
-- oldest first; or one row with a null post. total_count is the author's post_count when the
-- caller may see the author's profile, else 0; viewer_has_liked whether the caller likes the
-- post (false when anonymous, and on a row without a post).
create or replace function public.post_pages(requests jsonb)
returns table (request_index int, total_count int, post jsonb, viewer_has_liked boolean)
language sql stable security invoker set search_path = '' set jit = off as $$
  with req as materialized (
    select (r.ord - 1)::int as idx,
           (r.value ->> 'author')::uuid as author,
           coalesce((r.value ->> 'backward')::boolean, false) as backward,
           -- the keyset's bounds, open when no cursor was given
           coalesce(timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond', 'infinity') as before_at,
           coalesce((r.value ->> 'cursor_id')::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff') as before_id,
           coalesce(timestamptz 'epoch' + (r.value ->> 'cursor_us')::bigint * interval '1 microsecond', '-infinity') as after_at,
           coalesce((r.value ->> 'cursor_id')::uuid, '00000000-0000-0000-0000-000000000000') as after_id,
           least(greatest(coalesce((r.value ->> 'limit')::int, 20), 0), 100) + 1 as fetch
    from jsonb_array_elements(requests) with ordinality as r(value, ord)
  )
  select req.idx,
         coalesce((select a.post_count from public.profiles a where a.id = req.author), 0),
         e.post,
         e.id is not null
           and exists (select 1 from public.post_likes l
                       where l.post_id = e.id and l.profile_id = (select auth.uid()))
  from req
  left join lateral (
    (select p.id, p.created_at, public.post_json(p) as post
     from public.posts p
     where not req.backward and p.author_id = req.author
       and (p.created_at, p.id) < (req.before_at, req.before_id)
     order by p.created_at desc, p.id desc limit req.fetch)
    union all
    (select p.id, p.created_at, public.post_json(p)
     from public.posts p
     where req.backward and p.author_id = req.author
       and (p.created_at, p.id) > (req.after_at, req.after_id)
     order by p.created_at, p.id limit req.fetch)
  ) e on true
  order by req.idx,
           case when req.backward then e.created_at end, case when req.backward then e.id end,
           e.created_at desc, e.id desc
$$;

-- ============ comment_pages: one page of comments for each of many posts ============
-- `requests` is a JSON array of {post, backward, cursor_us, cursor_id, limit}; comments run
-- oldest first (a conversation reads down): forward, up to limit + 1 strictly newer than the
-- cursor, oldest first; backward, up to limit + 1 strictly older than the cursor, newest first;
-- or one row with a null comment. total_count is the post's comment_count when the caller may
-- see the post, else 0.
create or replace function public.comment_pages(requests jsonb)
returns table (request_index int, total_count int, comment jsonb)
language sql stable security invoker set search_path = '' set jit = off as $$
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
  )
  select req.idx,
         coalesce((select p.comment_count from public.posts p where p.id = req.post), 0),
         e.comment
  from req
  left join lateral (
    (select c.id, c.created_at, public.comment_json(c) as comment
     from public.comments c
     where not req.backward and c.post_id = req.post
       and (c.created_at, c.id) > (req.after_at, req.after_id)
     order by c.created_at, c.id limit req.fetch)
    union all
    (select c.id, c.created_at, public.comment_json(c)
     from public.comments c
     where req.backward and c.post_id = req.post
       and (c.created_at, c.id) < (req.before_at, req.before_id)
     order by c.created_at desc, c.id desc limit req.fetch)
  ) e on true
  order by req.idx,
           case when req.backward then e.created_at end desc, case when req.backward then e.id end desc,
           e.created_at, e.id
$$;

-- ============ viewer_likes: which of these posts the caller likes ============
-- One probe of post_likes' primary key per post; empty when anonymous.
create or replace function public.viewer_likes(post_ids uuid[]) returns setof uuid
language sql stable security invoker set search_path = '' as $$
  select l.post_id from public.post_likes l
  where l.post_id = any (post_ids) and l.profile_id = (select auth.uid())
$$;

-- ============ feed_page: the caller's feed (seed 003) ============
-- Posts of the profiles the caller actively follows, and the caller's own, that the caller may
-- see, newest first by (created_at, id), strictly older than (after_us, after_id) when given,
-- at most page_size (clamped to 1..101; the gateway asks limit + 1).
--
-- A bounded walk, whatever the authors' histories: for each author (the caller, then each
-- followee through follows_follower_page_idx) at most page_size posts from
-- posts_author_created_idx, the keyset an index condition, then the newest page_size of those.
-- So a page reads at most (followees + 1) x page_size posts, never all posts of all followees
-- (the seed's `.in("author", ...)` order-by-created_at query does, for every page).
--
-- The query is social_private.feed_rows, a single SELECT, so that
-- supabase/tests/15_feed_test.sql can plan exactly its text and prove the walk: a copy of it
-- without the `set` clauses is inlined into an EXPLAIN (the `set`s keep the real one from
-- being inlined, which is why the body is not feed_page's own). feed_page adds the anonymous
-- check, which a single SELECT cannot raise.
create or replace function social_private.feed_rows(after_us bigint, after_id uuid, page_size int)
returns table (post jsonb, viewer_has_liked boolean)
language sql stable security invoker set search_path = '' set jit = off as $$
  select public.post_json(p.post_row),
         exists (select 1 from public.post_likes l
                 where l.post_id = p.id and l.profile_id = (select auth.uid()))
  from (select (select auth.uid()) as author_id
        union all
        select f.followee_id from public.follows f
        where f.follower_id = (select auth.uid()) and f.deleted_at is null) as a
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
  limit least(greatest(page_size, 1), 101)
$$;
revoke execute on function social_private.feed_rows(bigint, uuid, int) from public;
grant execute on function social_private.feed_rows(bigint, uuid, int) to authenticated;

create or replace function public.feed_page(after_us bigint default null, after_id uuid default null,
                                            page_size int default 21)
returns table (post jsonb, viewer_has_liked boolean)
language plpgsql stable security invoker set search_path = '' set jit = off as $$
begin
  if auth.uid() is null then
    raise exception 'You must be logged in to see your feed'
      using errcode = 'PT401', hint = 'authentication_required';
  end if;
  return query select f.post, f.viewer_has_liked from social_private.feed_rows(after_us, after_id, page_size) f;
end $$;

-- ============ toggle_like ============
-- Likes the post, or removes the caller's like; returns {liked, like_count} after the change.
-- Invoker: the post must be visible to the caller (posts_read), and the insert or delete goes
-- through post_likes' own policies. The (post, caller) pair is locked first, so a concurrent
-- toggle of the same pair (two devices, a retried request) waits and then sees this one's
-- result: none is lost and none fails on the primary key; like_count moves in the counter
-- trigger, whose update of the post row serialises the likes of one post.
create or replace function social_private.lock_like_pair(post uuid, profile uuid) returns void
language sql volatile set search_path = '' as $$
  select pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('post_likes:' || post::text || ':' || profile::text, 0))
$$;
revoke execute on function social_private.lock_like_pair(uuid, uuid) from public;
grant execute on function social_private.lock_like_pair(uuid, uuid) to authenticated;

create or replace function public.toggle_like(target uuid) returns jsonb
language plpgsql volatile security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
  removed int;
begin
  if me is null then
    raise exception 'You must be logged in to like posts'
      using errcode = 'PT401', hint = 'authentication_required';
  end if;
  if not exists (select 1 from public.posts p where p.id = target) then  -- hidden or missing
    raise exception 'Post not found' using errcode = 'PT404', hint = 'post_not_found';
  end if;
  perform social_private.lock_like_pair(target, me);
  delete from public.post_likes l where l.post_id = target and l.profile_id = me;
  get diagnostics removed = row_count;
  if removed = 0 then
    insert into public.post_likes (post_id, profile_id) values (target, me);
  end if;
  return jsonb_build_object(
    'liked', removed = 0,
    'like_count', (select p.like_count from public.posts p where p.id = target));
end $$;

-- ============ active_stories ============
-- The unexpired stories of the profiles the caller actively follows and the caller's own, that
-- the caller may see (stories_read), by author then age.
create or replace function public.active_stories() returns setof public.stories
language plpgsql stable security invoker set search_path = '' as $$
begin
  if auth.uid() is null then
    raise exception 'You must be logged in to see stories'
      using errcode = 'PT401', hint = 'authentication_required';
  end if;
  return query
    select s.*
    from (select (select auth.uid()) as author_id
          union all
          select f.followee_id from public.follows f
          where f.follower_id = (select auth.uid()) and f.deleted_at is null) as a
    join public.stories s on s.author_id = a.author_id and s.expires_at > now()
    order by s.author_id, s.created_at, s.id;
end $$;

revoke execute on function
  public.post_json(public.posts), public.comment_json(public.comments), public.post_pages(jsonb),
  public.comment_pages(jsonb), public.viewer_likes(uuid[]), public.feed_page(bigint, uuid, int),
  public.toggle_like(uuid), public.active_stories()
  from public;
-- anon may call the three that need a caller, to be told so (PT401) rather than refused (42501).
grant execute on function
  public.post_json(public.posts), public.comment_json(public.comments), public.post_pages(jsonb),
  public.comment_pages(jsonb), public.viewer_likes(uuid[]), public.feed_page(bigint, uuid, int),
  public.toggle_like(uuid), public.active_stories()
  to anon, authenticated;
