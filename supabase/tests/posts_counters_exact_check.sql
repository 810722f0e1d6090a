-- After the concurrent like toggles, comments and posts of scripts/test-supabase-sql: every
-- post's like_count and comment_count equal their rows, every profile's post_count its posts,
-- and what was toggled an even number of times ended as it started.
\set ON_ERROR_STOP 1
do $$
declare drift text;
begin
  select string_agg(p.id || ' likes ' || p.like_count || ' comments ' || p.comment_count, '; ') into drift
  from public.posts p
  where p.like_count <> (select count(*) from public.post_likes l where l.post_id = p.id)
     or p.comment_count <> (select count(*) from public.comments c where c.post_id = p.id);
  if drift is not null then raise exception 'FAIL: post counters drifted: %', drift; end if;
  select string_agg(p.handle || ' ' || p.post_count, ', ') into drift from public.profiles p
  where p.post_count <> (select count(*) from public.posts x where x.author_id = p.id);
  if drift is not null then raise exception 'FAIL: post_count drifted for %', drift; end if;
  -- every toggle was toggled back by the same client, so each pair ends where it started: the only
  -- like left is alice's of dave's post, made before; every comment and churned post is gone
  if (select array_agg(post_id::text || ' ' || profile_id::text) from public.post_likes
      where post_id in ('0000000b-0000-4000-8000-0000000c0001', '0000000d-0000-4000-8000-0000000c0002'))
     is distinct from array['0000000d-0000-4000-8000-0000000c0002 a11ce000-0000-4000-8000-000000000001'] then
    raise exception 'FAIL: a concurrent like toggle was lost: %', (select array_agg(post_id::text || ' ' || profile_id::text) from public.post_likes);
  end if;
  if exists (select 1 from public.comments where content = 'concurrency')
     or exists (select 1 from public.posts where content = 'concurrency churn') then
    raise exception 'FAIL: a concurrent comment or post was not removed';
  end if;
end $$;
