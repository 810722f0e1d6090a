-- Row-level security no looser than the gateway (issue 37, section 5; migration 20250301002000),
-- tried the way a client holding only the anon key, or a user's own token, talks to PostgREST
-- directly: each block is a hole that was open before that migration. In one transaction,
-- rolled back. alice, bob, dave are public; carol is private (01_fixtures.sql).
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
-- The caller's new story as the gateway makes one: the file (as Storage records it), then
-- create_story; `n` makes the name (`<uid>/<unix>_<8 hex>.jpg`).
create function pg_temp.story(n int) returns public.stories language plpgsql as $$
declare p text := auth.uid()::text || '/1740912672_' || lpad(to_hex(n), 8, '0') || '.jpg'; s public.stories;
begin
  insert into storage.objects (bucket_id, name) values ('stories', p);
  select * into s from public.create_story(p, 'image', 'https://ref.supabase.co/storage/v1/object/public/stories/' || p);
  return s;
end $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Fixtures, as the owner: a post of bob's liked by alice (public) and carol (private), a story
-- of bob's, and dave's follow of bob.
insert into public.posts (id, author_id, content)
values ('0000000b-0000-4000-8000-0000000020a1', 'b0b00000-0000-4000-8000-000000000002', 'liked by a private profile');
insert into public.post_likes (post_id, profile_id) values
  ('0000000b-0000-4000-8000-0000000020a1', 'a11ce000-0000-4000-8000-000000000001'),
  ('0000000b-0000-4000-8000-0000000020a1', 'ca201000-0000-4000-8000-000000000003');
insert into public.follows (follower_id, followee_id)
values ('d0000000-0000-4000-8000-000000000004', 'b0b00000-0000-4000-8000-000000000002')
on conflict (follower_id, followee_id) do update set deleted_at = null;
do $$ begin
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  perform pg_temp.story(1);
  perform pg_temp.logout();
end $$;

-- ============ a private profile's likes reach nobody but itself ============
do $$
declare likers text;
begin
  -- anon, a stranger, and the post's own author see alice's like only
  foreach likers in array array[null, 'd0000000-0000-4000-8000-000000000004', 'b0b00000-0000-4000-8000-000000000002'] loop
    perform pg_temp.login(likers::uuid);
    if (select string_agg(profile_id::text, ',' order by profile_id) from public.post_likes
        where post_id = '0000000b-0000-4000-8000-0000000020a1') is distinct from 'a11ce000-0000-4000-8000-000000000001' then
      raise exception 'FAIL: % reads a private profile''s like', coalesce(likers, 'anon');
    end if;
  end loop;
  -- carol reads her own
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  if (select count(*) from public.post_likes where post_id = '0000000b-0000-4000-8000-0000000020a1') <> 2 then
    raise exception 'FAIL: carol cannot read her own like';
  end if;
  perform pg_temp.logout();
end $$;

-- ============ stories, follows and search: signed-in viewers only, as in the gateway ============
do $$
declare n int;
begin
  perform pg_temp.login(null);
  if exists (select 1 from public.stories) then raise exception 'FAIL: anon reads stories'; end if;
  if exists (select 1 from public.follows) then raise exception 'FAIL: anon reads follows'; end if;
  begin
    perform public.search_profiles('%dave%');
    raise exception 'FAIL: anon searched profiles';
  exception when insufficient_privilege then null;
  end;
  begin
    perform public.follow_pages('[{"owner":"b0b00000-0000-4000-8000-000000000002","kind":"followers"}]');
    raise exception 'FAIL: anon called follow_pages';
  exception when insufficient_privilege then null;
  end;
  -- what the gateway shows anonymously still works: public profiles and their posts
  if not exists (select 1 from public.profiles where id = 'b0b00000-0000-4000-8000-000000000002')
     or not exists (select 1 from public.posts where id = '0000000b-0000-4000-8000-0000000020a1') then
    raise exception 'FAIL: anon lost a public profile or post';
  end if;
  -- signed in: all of it
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  select count(*) into n from public.stories where author_id = 'b0b00000-0000-4000-8000-000000000002';
  if n <> 1 then raise exception 'FAIL: alice reads % of bob''s stories', n; end if;
  if not exists (select 1 from public.follows where follower_id = 'd0000000-0000-4000-8000-000000000004') then
    raise exception 'FAIL: alice cannot read dave''s follow';
  end if;
  if (select string_agg(handle, ',') from public.search_profiles('%dave%')) is distinct from 'dave_dyno' then
    raise exception 'FAIL: alice cannot search';
  end if;
  perform pg_temp.logout();
end $$;

-- ============ story rows only through create_story ============
do $$
declare c text; bad text; hint text; detail text; p text := 'a11ce000-0000-4000-8000-000000000001/1740912672_0000abcd.jpg';
begin
  if has_table_privilege('authenticated', 'public.stories', 'INSERT')
     or has_any_column_privilege('authenticated', 'public.stories', 'INSERT')
     or has_any_column_privilege('anon', 'public.stories', 'INSERT')
     or exists (select 1 from pg_policy where polrelid = 'public.stories'::regclass and polcmd = 'a') then
    raise exception 'FAIL: a client may still insert into stories';
  end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  -- the direct insert of the review: any URL, any type, a file that does not exist
  begin
    insert into public.stories (author_id, media_url, media_path, media_type)
    values ('a11ce000-0000-4000-8000-000000000001', 'javascript:alert(1)', 'a11ce000-0000-4000-8000-000000000001/none.jpg', 'video');
    raise exception 'FAIL: alice inserted a story row directly';
  exception when insufficient_privilege then null;
  end;
  -- create_story of a file that is not in the bucket
  begin
    perform public.create_story(p, 'image', 'https://ref.supabase.co/storage/v1/object/public/stories/' || p);
    raise exception 'FAIL: a story of a file that does not exist';
  exception when sqlstate 'PT404' then
    get stacked diagnostics hint = pg_exception_hint;
    if hint <> 'story_media_not_found' then raise exception 'FAIL: hint %', hint; end if;
  end;
  insert into storage.objects (bucket_id, name) values ('stories', p);
  -- URLs that are not the project's URL of that file
  foreach c in array array[
      'javascript:alert(1)//' || p, 'data:image/jpeg;base64,/9j/', 'https://evil.example/x.jpg',
      'https://ref.supabase.co/storage/v1/object/public/avatars/' || p,
      'https://ref.supabase.co/storage/v1/object/public/stories/' || p || '?download=1',
      'https://user@ref.supabase.co/storage/v1/object/public/stories/' || p,
      'https://ref.supabase.co/../storage/v1/object/public/stories/' || p,
      'https://ref.supabase.co/storage/v1/object/public/stories/b0b00000-0000-4000-8000-000000000002/1740912672_0000abcd.jpg'] loop
    begin
      perform public.create_story(p, 'image', c);
      bad := concat_ws(' | ', bad, c);
    exception when sqlstate '22023' then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: story URLs accepted: %', bad; end if;
  -- the gateway's own layout (PostgreSQL mode, PUBLIC_URL with a path) is the project's too
  if (select s.media_url from public.create_story(p, 'image', 'https://social.example/gw/stories/' || p) s)
     <> 'https://social.example/gw/stories/' || p then
    raise exception 'FAIL: the gateway''s story URL';
  end if;
  perform pg_temp.logout();
  -- the table's own check holds for the service role too
  begin
    insert into public.stories (author_id, media_url, media_path, media_type)
    values ('a11ce000-0000-4000-8000-000000000001', 'https://evil.example/x.jpg', p, 'image');
    raise exception 'FAIL: a story row with a foreign URL';
  exception when check_violation then null;
  end;
  -- create_story is a definer with an empty search_path, for signed-in callers only
  if not (select prosecdef and proconfig = array['search_path=""'] from pg_proc
          where oid = 'public.create_story(text, text, text)'::regprocedure)
     or has_function_privilege('anon', 'public.create_story(text, text, text)', 'execute')
     or not has_function_privilege('authenticated', 'public.create_story(text, text, text)', 'execute') then
    raise exception 'FAIL: create_story''s definition or grants';
  end if;
end $$;

-- ============ at most 30 active stories per author ============
do $$
declare hint text; detail text; wait int;
begin
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  for i in 1..30 loop perform pg_temp.story(100 + i); end loop;
  -- the oldest expires in 10 minutes (moved as the owner, the trigger off)
  perform pg_temp.logout();
  set local session_replication_role = replica;
  update public.stories set created_at = now() - interval '23 hours 50 minutes', expires_at = now() + interval '10 minutes'
  where media_path = 'd0000000-0000-4000-8000-000000000004/1740912672_00000065.jpg';
  set local session_replication_role = origin;
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  begin
    perform pg_temp.story(200);
    raise exception 'FAIL: a 31st active story';
  exception when sqlstate 'PT429' then
    get stacked diagnostics hint = pg_exception_hint, detail = pg_exception_detail;
    wait := substring(detail from '^retry_after=([0-9]+)$')::int;
    if hint <> 'too_many_stories' or wait not between 590 and 600 then
      raise exception 'FAIL: the quota''s error: % %', hint, detail;
    end if;
  end;
  -- the refused call left nothing: 30 rows
  if (select count(*) from public.stories where author_id = 'd0000000-0000-4000-8000-000000000004') <> 30 then
    raise exception 'FAIL: the refused story was written';
  end if;
  -- an expired story no longer counts
  perform pg_temp.logout();
  set local session_replication_role = replica;
  update public.stories set created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
  where media_path = 'd0000000-0000-4000-8000-000000000004/1740912672_00000065.jpg';
  set local session_replication_role = origin;
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  perform pg_temp.story(201);
  perform pg_temp.logout();
end $$;

-- ============ photo_url: the project's own storage, the owner's own folder ============
do $$
declare c text; bad text; a text := 'a11ce000-0000-4000-8000-000000000001';
begin
  perform pg_temp.login(a::uuid);
  foreach c in array array[
      'javascript:alert(1)', 'JavaScript:alert(1)//https://x/avatars/' || a || '/1.jpg', 'data:image/png;base64,iVBORw0KGgo=',
      'https://evil.example/x.jpg', 'ftp://ref.supabase.co/storage/v1/object/public/avatars/' || a || '/1740912672_3f9c1a2b.jpg',
      'https://ref.supabase.co/storage/v1/object/public/avatars/b0b00000-0000-4000-8000-000000000002/1740912672_3f9c1a2b.jpg',
      'https://ref.supabase.co/storage/v1/object/public/avatars/' || a || '/../x.jpg',
      'https://ref.supabase.co/storage/v1/object/public/avatars/' || a || '/1740912672_3f9c1a2b.jpg#x',
      'https://ref.supabase.co/storage/v1/object/public/stories/' || a || '/1740912672_3f9c1a2b.jpg'] loop
    begin
      update public.profiles set photo_url = c where id = a::uuid;
      bad := concat_ws(' | ', bad, c);
    exception when check_violation then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: photo URLs accepted: %', bad; end if;
  -- what the stores write: Supabase Storage's public URL, the gateway's own /avatars/ (with a
  -- PUBLIC_URL path), and none
  foreach c in array array[
      'https://ref.supabase.co/storage/v1/object/public/avatars/' || a || '/1740912672_3f9c1a2b.jpg',
      'http://127.0.0.1:8080/avatars/' || a || '/1740912672_3f9c1a2b.png',
      'https://social.example/gw/avatars/' || a || '/1740912672_3f9c1a2b.png', null] loop
    update public.profiles set photo_url = c where id = a::uuid;
  end loop;
  perform pg_temp.logout();
end $$;

-- ============ internal helpers: nobody but the definer functions may run them ============
do $$
declare fn text; r text;
begin
  foreach fn in array array['public.follow_check(uuid)', 'public.follow_outcome(uuid, uuid)',
                            'social_private.lock_follow_pair(uuid, uuid)', 'social_private.follow_caller(uuid)',
                            'social_private.is_following(uuid, uuid)'] loop
    foreach r in array array['public', 'anon', 'authenticated'] loop
      if (r = 'public' and exists (select 1 from pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                                   where p.oid = fn::regprocedure and a.grantee = 0 and a.privilege_type = 'EXECUTE'))
         or (r <> 'public' and has_function_privilege(r, fn, 'execute')) then
        raise exception 'FAIL: % may execute %', r, fn;
      end if;
    end loop;
  end loop;
  -- the hole itself: follow_check locked the caller's and any visible profile FOR UPDATE
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  begin
    perform public.follow_check('d0000000-0000-4000-8000-000000000004');
    raise exception 'FAIL: alice called follow_check';
  exception when insufficient_privilege then null;
  end;
  -- the mutations still work (they run the helpers as their definer)
  if not (public.toggle_follow('d0000000-0000-4000-8000-000000000004') ? 'is_following') then
    raise exception 'FAIL: toggle_follow';
  end if;
  perform pg_temp.logout();
end $$;

rollback;
