-- The functions report conditions, never words (migration 20250301002100, issue 38): each error
-- is its code as message and hint, with the argument the stores map in detail; a signed-out
-- caller's error names the action (SocialDomain's SignedInAction codes), which the domain words.
-- In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

-- signed in as nobody: the authenticated role (which may execute every function) without a sub
create function pg_temp.expect_signed_out(label text, call text, action text) returns void
language plpgsql as $$
declare msg text; hint text; detail text;
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', '{"role":"authenticated"}', true);
  begin
    execute call;
    raise exception 'FAIL: % answered a signed-out caller', label;
  exception when sqlstate 'PT401' then
    get stacked diagnostics msg = message_text, hint = pg_exception_hint, detail = pg_exception_detail;
    if msg <> 'authentication_required' or hint <> 'authentication_required' or detail <> 'action=' || action then
      raise exception 'FAIL: % signed out: % / % / %', label, msg, hint, detail;
    end if;
  end;
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end $$;

do $$ begin
  perform pg_temp.expect_signed_out('toggle_follow', 'select public.toggle_follow(''b0b00000-0000-4000-8000-000000000002'')', 'follow_users');
  perform pg_temp.expect_signed_out('follow_profile', 'select public.follow_profile(''b0b00000-0000-4000-8000-000000000002'')', 'follow_users');
  perform pg_temp.expect_signed_out('unfollow_profile', 'select public.unfollow_profile(''b0b00000-0000-4000-8000-000000000002'')', 'follow_users');
  perform pg_temp.expect_signed_out('feed_page', 'select * from public.feed_page(null, null, 10)', 'view_feed');
  perform pg_temp.expect_signed_out('feed_page_with_sources', 'select public.feed_page_with_sources(null, null, 10)', 'view_feed');
  perform pg_temp.expect_signed_out('toggle_like', 'select public.toggle_like(''b0b00000-0000-4000-8000-000000000002'')', 'like_posts');
  perform pg_temp.expect_signed_out('active_stories', 'select * from public.active_stories()', 'view_stories');
  perform pg_temp.expect_signed_out('create_story', 'select * from public.create_story(''x'', ''image'', ''y'')', 'post_stories');
end $$;

-- the other conditions: message = hint, and the argument at fault in detail
do $$
declare msg text; hint text; detail text;
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
  begin
    perform public.toggle_like('00000000-0000-4000-8000-0000000000ff');
    raise exception 'FAIL: liked a missing post';
  exception when sqlstate 'PT404' then
    get stacked diagnostics msg = message_text, hint = pg_exception_hint;
    if msg <> 'post_not_found' or hint <> 'post_not_found' then raise exception 'FAIL: missing post: % / %', msg, hint; end if;
  end;
  begin
    perform public.follow_profile('00000000-0000-4000-8000-0000000000ff');
    raise exception 'FAIL: followed a missing profile';
  exception when sqlstate 'PT404' then
    get stacked diagnostics msg = message_text, hint = pg_exception_hint;
    if msg <> 'profile_not_found' or hint <> 'profile_not_found' then raise exception 'FAIL: missing profile: % / %', msg, hint; end if;
  end;
  begin
    perform public.create_story('elsewhere/1_0000abcd.jpg', 'image', 'https://x.example/a.jpg');
    raise exception 'FAIL: a story outside the caller''s folder';
  exception when sqlstate '22023' then
    get stacked diagnostics msg = message_text, hint = pg_exception_hint, detail = pg_exception_detail;
    if msg <> 'invalid_story_media' or hint <> 'invalid_story_media' or detail <> 'media_path' then
      raise exception 'FAIL: a story''s path: % / % / %', msg, hint, detail;
    end if;
  end;
  begin
    perform public.create_story('a11ce000-0000-4000-8000-000000000001/1740912672_0000abcd.jpg', 'image', 'https://evil.example/a.jpg');
    raise exception 'FAIL: a story with a foreign URL';
  exception when sqlstate '22023' then
    get stacked diagnostics msg = message_text, detail = pg_exception_detail;
    if msg <> 'invalid_story_media' or detail <> 'media_url' then raise exception 'FAIL: a story''s URL: % / %', msg, detail; end if;
  end;
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end $$;

-- No function of the schema words an error in English any more: a message that starts with a
-- capital letter would be one more copy of the domain's wording.
do $$
declare worded text;
begin
  select string_agg(p.oid::regprocedure::text, ', ') into worded
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where n.nspname in ('public', 'social_private') and p.prosrc ~ 'raise\s+exception\s+''[A-Z]';
  if worded is not null then raise exception 'FAIL: functions that word their errors: %', worded; end if;
end $$;

rollback;
