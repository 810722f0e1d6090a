-- Activities in cache notifications (migration 20250301002200): what social_private.activity
-- gives for each kind of write (a follow, a restored follow, a like, a comment, a post, and the
-- writes that are none: unfollows, no-op updates, deletes, edits), `at` exact to the
-- microsecond, and that a follow of a profile already followed writes no row at all (so no
-- trigger sends anything). scripts/test-supabase-sql LISTENs to see the payloads really sent.
\set ON_ERROR_STOP 1

create function pg_temp.expect(label text, got jsonb, want jsonb) returns void
language plpgsql as $$
begin
  if got is distinct from want then
    raise exception 'FAIL: % gave %, expected %', label, coalesce(got::text, 'null'), coalesce(want::text, 'null');
  end if;
end $$;

create function pg_temp.refused(label text, table_name text, old_row jsonb, new_row jsonb, post_author uuid) returns void
language plpgsql as $$
begin
  perform social_private.activity(table_name, old_row, new_row, post_author);
  raise exception 'FAIL: %: an activity for a row it cannot read', label;
exception when raise_exception then
  if sqlerrm like 'FAIL:%' then raise; end if;
end $$;

do $$
declare
  a constant text := 'a11ce000-0000-4000-8000-000000000001';
  b constant text := 'b0b00000-0000-4000-8000-000000000002';
  d constant text := 'd0000000-0000-4000-8000-000000000004';
  pid constant text := '0000000a-0000-4000-8000-000000000001';
  cid constant text := '0000000c-0000-4000-8000-000000000001';
  -- 2025-03-01 12:34:56.999999 UTC: the last microsecond of a second, where rounding would show
  t constant timestamptz := '2025-03-01 12:34:56.999999+00';
  t_us constant bigint := 1740832496999999;
  f jsonb := jsonb_build_object('id', gen_random_uuid(), 'follower_id', a, 'followee_id', d,
                                'created_at', t - interval '1 day', 'updated_at', t, 'deleted_at', null);
  undone jsonb := f || jsonb_build_object('deleted_at', t - interval '1 hour', 'updated_at', t - interval '1 hour');
  followed jsonb := jsonb_build_object('kind', 'followed', 'actor', a, 'subject', d, 'post', null, 'comment', null, 'at', t_us);
  p jsonb := jsonb_build_object('id', pid, 'author_id', b, 'content', 'hi', 'image_urls', '[]'::jsonb,
                                'like_count', 0, 'comment_count', 0, 'created_at', t, 'updated_at', t);
  l jsonb := jsonb_build_object('post_id', pid, 'profile_id', a, 'created_at', t);
  c jsonb := jsonb_build_object('id', cid, 'post_id', pid, 'author_id', d, 'content', 'nice', 'created_at', t);
  prof jsonb := (select to_jsonb(x) from public.profiles x where x.id = a::uuid);
  pp jsonb := (select to_jsonb(x) from public.profile_private x where x.id = a::uuid);
  s jsonb := jsonb_build_object('id', gen_random_uuid(), 'author_id', b, 'created_at', t, 'expires_at', t);
begin
  if prof is null or pp is null then raise exception 'FAIL: the fixtures lack alice'; end if;

  -- follows: a new follow and a restored one are `followed`, at updated_at
  perform pg_temp.expect('follows insert', social_private.activity('follows', null, f), followed);
  perform pg_temp.expect('follows restore', social_private.activity('follows', undone, f), followed);
  perform pg_temp.expect('follows upper-case ids',
    social_private.activity('follows', null, f || jsonb_build_object('follower_id', upper(a), 'followee_id', upper(d))), followed);
  -- an unfollow, an undone follow inserted as such, an update of an active follow that keeps it
  -- active (what a second follow would be if it wrote), an update of an undone one, a delete: none
  perform pg_temp.expect('follows soft delete', social_private.activity('follows', f, undone), null);
  perform pg_temp.expect('follows insert undone', social_private.activity('follows', null, undone), null);
  perform pg_temp.expect('follows active stays active',
    social_private.activity('follows', f, f || jsonb_build_object('updated_at', t + interval '1 second')), null);
  perform pg_temp.expect('follows undone stays undone',
    social_private.activity('follows', undone, undone || jsonb_build_object('deleted_at', t)), null);
  perform pg_temp.expect('follows delete', social_private.activity('follows', f, null), null);
  perform pg_temp.expect('follows delete of an undone one', social_private.activity('follows', undone, null), null);

  -- post_likes: an insert is `liked`, subject the author passed in; an unlike is none
  perform pg_temp.expect('post_likes insert', social_private.activity('post_likes', null, l, b::uuid),
    jsonb_build_object('kind', 'liked', 'actor', a, 'subject', b, 'post', pid, 'comment', null, 'at', t_us));
  perform pg_temp.expect('post_likes insert on own post', social_private.activity('post_likes', null, l, a::uuid),
    jsonb_build_object('kind', 'liked', 'actor', a, 'subject', a, 'post', pid, 'comment', null, 'at', t_us));
  perform pg_temp.expect('post_likes delete', social_private.activity('post_likes', l, null, b::uuid), null);
  perform pg_temp.expect('post_likes update', social_private.activity('post_likes', l, l, b::uuid), null);

  -- comments: an insert is `commented`, with the comment; an edit or removal is none
  perform pg_temp.expect('comments insert', social_private.activity('comments', null, c, b::uuid),
    jsonb_build_object('kind', 'commented', 'actor', d, 'subject', b, 'post', pid, 'comment', cid, 'at', t_us));
  perform pg_temp.expect('comments edit', social_private.activity('comments', c, c || '{"content":"edited"}', b::uuid), null);
  perform pg_temp.expect('comments delete', social_private.activity('comments', c, null, b::uuid), null);

  -- posts: an insert is `posted` by its author about themself; edits, counters, deletes are none
  perform pg_temp.expect('posts insert', social_private.activity('posts', null, p),
    jsonb_build_object('kind', 'posted', 'actor', b, 'subject', b, 'post', pid, 'comment', null, 'at', t_us));
  perform pg_temp.expect('posts edit', social_private.activity('posts', p, p || '{"content":"edited"}'), null);
  perform pg_temp.expect('posts like_count update', social_private.activity('posts', p, p || '{"like_count":1}'), null);
  perform pg_temp.expect('posts delete', social_private.activity('posts', p, null), null);

  -- the other tables the cache notifies for: never
  perform pg_temp.expect('profiles insert', social_private.activity('profiles', null, prof), null);
  perform pg_temp.expect('profiles update', social_private.activity('profiles', prof, prof || '{"bio":"x"}'), null);
  perform pg_temp.expect('profile_private update', social_private.activity('profile_private', pp, pp), null);
  perform pg_temp.expect('stories insert', social_private.activity('stories', null, s), null);

  -- `at` exact whatever the time and the session's zone: before 1970, an offset, the far future
  perform set_config('timezone', 'America/St_Johns', true);
  perform pg_temp.expect('at before 1970',
    social_private.activity('posts', null, p || jsonb_build_object('created_at', '1969-12-31 23:59:59.000001+00'::timestamptz)) -> 'at',
    '-999999'::jsonb);
  perform pg_temp.expect('at with an offset',
    social_private.activity('posts', null, p || '{"created_at":"2025-03-01T18:04:56.123457+05:30"}') -> 'at',
    '1740832496123457'::jsonb);
  perform pg_temp.expect('at in 9999',
    social_private.activity('posts', null, p || jsonb_build_object('created_at', '9999-12-31 23:59:59.999999+00'::timestamptz)) -> 'at',
    '253402300799999999'::jsonb);
  perform pg_temp.expect('at of the row''s own jsonb',
    social_private.activity('posts', null, p || jsonb_build_object('created_at', t)) -> 'at', to_jsonb(t_us));
  perform pg_temp.expect('at of every microsecond of a second',
    (select jsonb_agg(social_private.activity('posts', null, p || jsonb_build_object('created_at', t - (n || ' microseconds')::interval)) -> 'at')
     from generate_series(0, 999999, 7) n),
    (select jsonb_agg(to_jsonb(t_us - n)) from generate_series(0, 999999, 7) n));
  -- an infinite time (written by hand) is no activity, rather than an aborted write
  perform pg_temp.expect('at infinity', social_private.activity('posts', null, p || '{"created_at":"infinity"}'), null);
  perform set_config('timezone', 'UTC', true);

  -- what it cannot read it refuses, rather than send a wrong activity
  perform pg_temp.refused('post_likes without the post''s author', 'post_likes', null, l, null);
  perform pg_temp.refused('comments without the post''s author', 'comments', null, c, null);
  perform pg_temp.refused('follows without its followee', 'follows', null, f - 'followee_id', null);
  perform pg_temp.refused('posts without its time', 'posts', null, p - 'created_at', null);
  perform pg_temp.refused('a table without activities', 'nonsense', null, p, null);
  perform pg_temp.refused('no row at all', 'posts', null, null, null);
end $$;

-- A follow of a profile already followed writes nothing (its upsert updates no row, so no
-- trigger fires and nothing is sent); a second unfollow neither. Alice calls the functions the
-- gateway calls; the superuser reads the row (follows_read hides undone follows): it keeps its
-- tuple (ctid; any update, HOT or not, makes a new one).
begin;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
create function pg_temp.as_alice(call text) returns void
language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  execute 'select ' || call;
  perform set_config('role', 'none', true);
end $$;
do $$
declare
  a constant uuid := 'a11ce000-0000-4000-8000-000000000001';
  b constant uuid := 'b0b00000-0000-4000-8000-000000000002';
  before text;
  after text;
begin
  perform pg_temp.as_alice(format('public.follow_profile(%L)', b));
  select ctid::text into before from public.follows where follower_id = a and followee_id = b and deleted_at is null;
  if before is null then raise exception 'FAIL: follow_profile made no active follow'; end if;
  perform pg_temp.as_alice(format('public.follow_profile(%L)', b));
  select ctid::text into after from public.follows where follower_id = a and followee_id = b;
  if after <> before then
    raise exception 'FAIL: a follow of a profile already followed wrote its row (ctid % then %)', before, after;
  end if;
  perform pg_temp.as_alice(format('public.unfollow_profile(%L)', b));
  select ctid::text into before from public.follows where follower_id = a and followee_id = b and deleted_at is not null;
  if before is null then raise exception 'FAIL: unfollow_profile left the follow active'; end if;
  perform pg_temp.as_alice(format('public.unfollow_profile(%L)', b));
  select ctid::text into after from public.follows where follower_id = a and followee_id = b;
  if after <> before then
    raise exception 'FAIL: an unfollow of a profile not followed wrote its row (ctid % then %)', before, after;
  end if;
end $$;
rollback;

-- The function is not the clients': only the definer's trigger function calls it.
do $$
begin
  if has_function_privilege('authenticated', 'social_private.activity(text, jsonb, jsonb, uuid)', 'execute')
     or has_function_privilege('anon', 'social_private.activity(text, jsonb, jsonb, uuid)', 'execute') then
    raise exception 'FAIL: clients may execute social_private.activity';
  end if;
end $$;
