-- feed_page (migration 20250301001600): seed 003's rule (the posts of the profiles the caller
-- actively follows, plus the caller's own, that the caller may see, newest first), keyset paging
-- that neither repeats nor skips while posts arrive, and a bounded plan: per author an index walk
-- of posts_author_created_idx limited to the page, never a scan of posts.
-- In one transaction, rolled back: the follows changed here must be as they were for the
-- concurrency checks (alice -> bob, dave -> alice, dave -> bob and carol -> bob are active).
\set ON_ERROR_STOP 1
begin;

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', case when who is null then 'anon' else 'authenticated' end, true);
  perform set_config('request.jwt.claims',
    case when who is null then '' else json_build_object('sub', who, 'role', 'authenticated')::text end, true);
end $$;
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end $$;
create function pg_temp.us(t timestamptz) returns bigint language sql immutable as $$
  select (extract(epoch from t) * 1000000)::bigint
$$;
-- The feed's posts as their authors' handles and post numbers, e.g. 'bob2 alice3 ...'.
create function pg_temp.feed(after_us bigint default null, after_id uuid default null, page_size int default 50)
returns text language sql as $$
  select coalesce(string_agg(f.post ->> 'content', ' ' order by o), '')
  from public.feed_page(after_us, after_id, page_size) with ordinality as f(post, viewer_has_liked, o)
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Two posts each, an hour apart, interleaved: bob1 < dave1 < carol1 < alice1 < bob2 < dave2 < carol2 < alice2.
insert into public.posts (author_id, content, created_at, updated_at)
select a.id, a.name || n, now() - interval '10 hours' + ((n - 1) * 4 + a.k) * interval '1 hour',
       now() - interval '10 hours' + ((n - 1) * 4 + a.k) * interval '1 hour'
from (values ('b0b00000-0000-4000-8000-000000000002'::uuid, 'bob', 0), ('d0000000-0000-4000-8000-000000000004', 'dave', 1),
             ('ca201000-0000-4000-8000-000000000003', 'carol', 2), ('a11ce000-0000-4000-8000-000000000001', 'alice', 3)) as a(id, name, k),
     generate_series(1, 2) n;

-- ============ the rule ============
do $$
declare got text;
begin
  -- bob follows nobody: his own posts only
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  got := pg_temp.feed();
  if got <> 'bob2 bob1' then raise exception 'FAIL: bob''s feed (following nobody): %', got; end if;
  -- alice follows bob (her follows of dave and carol are undone): hers and bob's
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  got := pg_temp.feed();
  if got <> 'alice2 bob2 alice1 bob1' then raise exception 'FAIL: alice''s feed: %', got; end if;
  -- dave follows alice and bob
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  got := pg_temp.feed();
  if got <> 'alice2 dave2 bob2 alice1 dave1 bob1' then raise exception 'FAIL: dave''s feed: %', got; end if;
  -- carol (private) follows bob, and sees her own posts
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  got := pg_temp.feed();
  if got <> 'carol2 bob2 carol1 bob1' then raise exception 'FAIL: carol''s feed: %', got; end if;

  -- a follow shows the followee's posts at once, an unfollow hides them at once
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  perform public.follow_profile('d0000000-0000-4000-8000-000000000004');
  got := pg_temp.feed();
  if got <> 'alice2 dave2 bob2 alice1 dave1 bob1' then raise exception 'FAIL: alice''s feed after following dave: %', got; end if;
  perform public.unfollow_profile('d0000000-0000-4000-8000-000000000004');
  got := pg_temp.feed();
  if got <> 'alice2 bob2 alice1 bob1' then raise exception 'FAIL: alice''s feed after unfollowing dave: %', got; end if;
  perform pg_temp.logout();
end $$;

do $$
declare got text; hint text;
begin
  -- a followed profile that turns private stays in its followers' feeds: they keep their follow,
  -- and approved followers see a private profile whole (migration 002300)
  update public.profiles set is_public = false where id = 'b0b00000-0000-4000-8000-000000000002';
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  got := pg_temp.feed();
  if got <> 'alice2 dave2 bob2 alice1 dave1 bob1' then raise exception 'FAIL: dave''s feed with bob private: %', got; end if;
  perform pg_temp.logout();
  update public.profiles set is_public = true where id = 'b0b00000-0000-4000-8000-000000000002';

  -- the caller's likes
  insert into public.post_likes (post_id, profile_id)
  select id, 'd0000000-0000-4000-8000-000000000004' from public.posts where content = 'bob1';
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  select string_agg(f.post ->> 'content', ' ') into got from public.feed_page(null, null, 50) f where f.viewer_has_liked;
  if got <> 'bob1' then raise exception 'FAIL: viewer_has_liked in dave''s feed: %', got; end if;
  -- page_size clamped to 1..101
  if (select count(*) from public.feed_page(null, null, 0)) <> 1 or (select count(*) from public.feed_page(null, null, -5)) <> 1 then
    raise exception 'FAIL: page_size 0 or less gives one post';
  end if;

  -- anonymous: PT401, hint authentication_required
  perform pg_temp.login(null);
  begin
    perform public.feed_page(null, null, 10);
    raise exception 'FAIL: an anonymous feed';
  exception when sqlstate 'PT401' then
    get stacked diagnostics hint = pg_exception_hint;
    if hint <> 'authentication_required' then raise exception 'FAIL: anonymous feed hint %', hint; end if;
  end;
  perform pg_temp.logout();
end $$;

-- ============ keyset paging while posts arrive ============
do $$
declare
  whole text; page1 text; page2 text; page3 text; last record; n int;
begin
  -- two posts of dave's at the same instant: the id orders them
  insert into public.posts (id, author_id, content, created_at) values
    ('0000000d-0000-4000-8000-00000000000a', 'd0000000-0000-4000-8000-000000000004', 'daveTieA', now() - interval '90 minutes'),
    ('0000000d-0000-4000-8000-00000000000b', 'd0000000-0000-4000-8000-000000000004', 'daveTieB', now() - interval '90 minutes');
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  whole := pg_temp.feed();
  if whole <> 'daveTieB daveTieA alice2 dave2 bob2 alice1 dave1 bob1' then raise exception 'FAIL: dave''s feed with a tie: %', whole; end if;

  -- page 1 of 3 (the gateway asks 4 to know there is more), then a new post arrives, then page 2
  -- after page 1's last post: nothing repeated, nothing skipped, the new post not in it
  page1 := pg_temp.feed(null, null, 3);
  select p.created_at, p.id into last from public.posts p where p.content = split_part(page1, ' ', 3);
  perform pg_temp.logout();
  insert into public.posts (author_id, content) values ('b0b00000-0000-4000-8000-000000000002', 'bobNew');
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  page2 := pg_temp.feed(pg_temp.us(last.created_at), last.id, 3);
  select p.created_at, p.id into last from public.posts p where p.content = split_part(page2, ' ', 3);
  page3 := pg_temp.feed(pg_temp.us(last.created_at), last.id, 3);
  if page1 || ' ' || page2 || ' ' || page3 <> whole then
    raise exception 'FAIL: pages % | % | % are not the feed %', page1, page2, page3, whole;
  end if;
  -- the tie split across pages of one: B then A
  select p.created_at, p.id into last from public.posts p where p.content = 'daveTieB';
  if pg_temp.feed(pg_temp.us(last.created_at), last.id, 1) <> 'daveTieA' then raise exception 'FAIL: paging through a tie'; end if;
  -- and the new post heads a fresh first page
  if split_part(pg_temp.feed(null, null, 1), ' ', 1) <> 'bobNew' then raise exception 'FAIL: the new post is not first'; end if;
  perform pg_temp.logout();
end $$;

-- ============ a bounded plan ============
-- 20 authors with 200 posts each, and a viewer who follows them all.
insert into auth.users (id, email)
select ('f' || lpad(i::text, 7, '0') || '-0000-4000-8000-00000000feed')::uuid, 'feed' || i || '@example.com'
from generate_series(1, 21) i;
insert into public.follows (follower_id, followee_id)
select 'f0000021-0000-4000-8000-00000000feed', ('f' || lpad(i::text, 7, '0') || '-0000-4000-8000-00000000feed')::uuid
from generate_series(1, 20) i;
insert into public.posts (author_id, content, created_at)
select ('f' || lpad(a::text, 7, '0') || '-0000-4000-8000-00000000feed')::uuid, 'post ' || a || '.' || n,
       now() - (n * 20 + a) * interval '1 minute'
from generate_series(1, 20) a, generate_series(1, 200) n;
analyze public.posts;
analyze public.follows;
analyze public.profiles;
analyze public.post_likes;

-- The exact text of social_private.feed_rows's query, in a SQL function without the `set`
-- clauses that keep the real one from being inlined: EXPLAIN then shows its plan. The PL/pgSQL
-- bodies (002800 onwards) are one `return query` statement; pg_temp.query_of lifts it out (a SQL
-- body is its own query).
create function pg_temp.query_of(fn regprocedure) returns text language sql stable as $$
  select case when l.lanname = 'plpgsql' then substring(p.prosrc from 'return query\s+(.*);\s*end\s*$') else p.prosrc end
  from pg_proc p join pg_language l on l.oid = p.prolang where p.oid = fn
$$;
do $$ begin
  if pg_temp.query_of('social_private.feed_rows(bigint, uuid, int)') is null
     or pg_temp.query_of('public.comment_pages(jsonb)') is null then
    raise exception 'FAIL: a PL/pgSQL page function is no longer one return query statement';
  end if;
end $$;
select format('create function pg_temp.feed_rows_inlined(after_us bigint, after_id uuid, page_size int)
                 returns table (post jsonb, viewer_has_liked boolean) language sql stable as %L',
              pg_temp.query_of('social_private.feed_rows(bigint, uuid, int)')) \gexec
grant execute on function pg_temp.feed_rows_inlined(bigint, uuid, int) to authenticated;

do $$
declare
  viewer constant uuid := 'f0000021-0000-4000-8000-00000000feed';
  deep record; c_us bigint; c_id uuid; args text; mode text; label text;
  plan jsonb; line text; text_plan text; walked numeric; removed numeric; want text; got text;
begin
  perform pg_temp.login(viewer);
  -- a cursor deep in the history: the 100th newest post of the viewer's feed
  select p.created_at, p.id into deep from public.posts p
  where p.author_id in (select followee_id from public.follows where follower_id = viewer) or p.author_id = viewer
  order by p.created_at desc, p.id desc offset 99 limit 1;
  for i in 1..2 loop
    if i = 1 then c_us := null; c_id := null; else c_us := pg_temp.us(deep.created_at); c_id := deep.id; end if;
    args := format('%s, %s', coalesce(c_us::text, 'null'), coalesce(quote_literal(c_id), 'null'));
    -- the real function agrees with the rule written plainly
    select string_agg(f.post ->> 'id', ',' order by o) into got
    from public.feed_page(c_us, c_id, 21) with ordinality as f(post, l, o);
    select string_agg(x.id::text, ',' order by x.created_at desc, x.id desc) into want from (
      select p.id, p.created_at from public.posts p
      where (p.author_id in (select followee_id from public.follows where follower_id = viewer) or p.author_id = viewer)
        and (c_us is null or (p.created_at, p.id) < (timestamptz 'epoch' + c_us * interval '1 microsecond', c_id))
      order by p.created_at desc, p.id desc limit 21) x;
    if got is distinct from want then raise exception 'FAIL: feed_page(%, 21) differs from the rule', args; end if;

    -- custom plans (the values known) and the generic plan (how the real SQL function plans its body)
    foreach mode in array array['force_custom_plan', 'force_generic_plan'] loop
      label := mode || ' (' || args || ', 21)';
      perform set_config('plan_cache_mode', mode, true);
      execute 'prepare feed_plan(bigint, uuid, int) as select * from pg_temp.feed_rows_inlined($1, $2, $3)';
      execute format('explain (analyze, costs off, timing off, summary off, format json) execute feed_plan(%s, 21)', args) into plan;
      text_plan := E'\n';
      for line in execute format('explain (costs off) execute feed_plan(%s, 21)', args) loop
        text_plan := text_plan || line || E'\n';
      end loop;
      execute 'deallocate feed_plan';
      if text_plan like '%Function Scan%' then raise exception 'FAIL: %: the feed query was not inlined:%', label, text_plan; end if;
      if jsonb_path_exists(plan, 'strict $.** ? (@."Relation Name" == "posts" && @."Node Type" like_regex "Seq Scan|Bitmap")') then
        raise exception 'FAIL: %: posts scanned without the author index:%', label, text_plan;
      end if;
      if not jsonb_path_exists(plan,
          'strict $.** ? (@."Index Name" == "posts_author_created_idx" && @."Index Cond" like_regex "author_id = .*ROW\\(created_at, id\\) <")') then
        raise exception 'FAIL: %: no walk of posts_author_created_idx with the keyset as its index condition:%', label, text_plan;
      end if;
      -- bounded: at most page_size posts for each of the 21 authors (the viewer too), none read and dropped
      select sum((n ->> 'Actual Rows')::numeric * (n ->> 'Actual Loops')::numeric),
             sum(coalesce((n ->> 'Rows Removed by Filter')::numeric, 0))
      into walked, removed
      from jsonb_path_query(plan, 'strict $.** ? (@."Index Name" == "posts_author_created_idx")') n;
      if walked is null or walked > 21 * 21 or removed > 0 then
        raise exception 'FAIL: %: the walk read % posts and dropped % (at most 441, none):%', label, walked, removed, text_plan;
      end if;
    end loop;
  end loop;
  perform pg_temp.logout();
end $$;

-- post_pages and comment_pages, the same way: deep in a list, the keyset is the index
-- condition of the walk, so a page reads limit + 1 rows whatever its depth.
insert into public.comments (post_id, author_id, content, created_at)
select p.id, 'f0000021-0000-4000-8000-00000000feed', 'comment ' || n, p.created_at + n * interval '1 second'
from (select id, created_at from public.posts where content like 'post 1.%' order by created_at desc limit 10) p,
     generate_series(1, 100) n;
analyze public.comments;
select format('create function pg_temp.post_pages_inlined(requests jsonb)
                 returns table (request_index int, total_count int, post jsonb, viewer_has_liked boolean) language sql stable as %L', prosrc)
from pg_proc where oid = 'public.post_pages(jsonb)'::regprocedure \gexec
select format('create function pg_temp.comment_pages_inlined(requests jsonb)
                 returns table (request_index int, total_count int, comment jsonb) language sql stable as %L',
              pg_temp.query_of('public.comment_pages(jsonb)')) \gexec
grant execute on function pg_temp.post_pages_inlined(jsonb), pg_temp.comment_pages_inlined(jsonb) to authenticated;

do $$
declare
  deep_post record; deep_comment record; fn text; req jsonb; idx text; plan jsonb; text_plan text; line text;
  walked numeric; removed numeric; backward boolean;
begin
  perform pg_temp.login('f0000021-0000-4000-8000-00000000feed');
  select created_at, id, author_id into deep_post from public.posts
  where author_id = 'f0000001-0000-4000-8000-00000000feed' order by created_at desc, id desc offset 150 limit 1;
  select created_at, id, post_id into deep_comment from public.comments
  where post_id = (select post_id from public.comments limit 1) order by created_at, id offset 60 limit 1;
  perform set_config('plan_cache_mode', 'force_generic_plan', true);
  foreach backward in array array[false, true] loop
    foreach fn in array array['post_pages', 'comment_pages'] loop
      if fn = 'post_pages' then
        idx := 'posts_author_created_idx';
        req := jsonb_build_array(jsonb_build_object('author', deep_post.author_id, 'limit', 10, 'backward', backward,
                 'cursor_us', pg_temp.us(deep_post.created_at), 'cursor_id', deep_post.id));
      else
        idx := 'comments_post_created_idx';
        req := jsonb_build_array(jsonb_build_object('post', deep_comment.post_id, 'limit', 10, 'backward', backward,
                 'cursor_us', pg_temp.us(deep_comment.created_at), 'cursor_id', deep_comment.id));
      end if;
      execute format('prepare page_plan(jsonb) as select * from pg_temp.%I($1)', fn || '_inlined');
      execute format('explain (analyze, costs off, timing off, summary off, format json) execute page_plan(%L)', req) into plan;
      text_plan := E'\n';
      for line in execute format('explain (costs off) execute page_plan(%L)', req) loop
        text_plan := text_plan || line || E'\n';
      end loop;
      execute 'deallocate page_plan';
      select sum((n ->> 'Actual Rows')::numeric * (n ->> 'Actual Loops')::numeric),
             sum(coalesce((n ->> 'Rows Removed by Filter')::numeric, 0))
      into walked, removed
      from jsonb_path_query(plan, format('strict $.** ? (@."Index Name" == "%s" && @."Index Cond" like_regex "ROW\\(created_at, id\\) [<>]")', idx)::jsonpath) n;
      if walked is null or walked > 11 or removed > 0 then
        raise exception 'FAIL: % (backward %) deep in a list: % rows walked by % with the keyset as index condition, % dropped (11 at most, none):%',
          fn, backward, walked, idx, removed, text_plan;
      end if;
    end loop;
  end loop;
  perform pg_temp.logout();
end $$;

rollback;
