-- stories (migrations 20250301001500, active_stories of 001600): times set by the database,
-- who reads, adds and removes what, an expired story returned by no path, active_stories'
-- rule, the bucket's folders, and the purge of long-expired rows and their objects.
-- In one transaction, rolled back.
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
-- A story row for `who` as its author would send it (PostgREST POST /rest/v1/stories).
create function pg_temp.story(who uuid, file text, kind text default 'image') returns public.stories
language sql as $$
  insert into public.stories (author_id, media_url, media_path, media_type)
  values (who, 'https://ref.supabase.co/storage/v1/object/public/stories/' || who || '/' || file, who || '/' || file, kind)
  returning *
$$;
-- The file names of the caller's active_stories, by author then name, after checking that
-- the rows come by author, then age (then id).
create function pg_temp.active() returns text language plpgsql as $$
declare got text; in_order boolean;
begin
  select coalesce(string_agg(split_part(s.media_path, '/', 2), ' ' order by s.author_id, s.media_path), ''),
         coalesce(bool_and(s.o = s.rank), true)
  into got, in_order
  from (select a.*, row_number() over (order by a.author_id, a.created_at, a.id) as rank
        from public.active_stories() with ordinality as a(id, author_id, media_url, media_path, media_type, created_at, expires_at, o)) s;
  if not in_order then raise exception 'FAIL: active_stories not by author, then age'; end if;
  return got;
end $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- ============ writes ============
do $$
declare s public.stories; n int; bad text; c text;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  s := pg_temp.story('a11ce000-0000-4000-8000-000000000001', 'alice1.jpg');
  if s.created_at <> now() or s.expires_at <> now() + interval '24 hours' then
    raise exception 'FAIL: a story''s times: % %', s.created_at, s.expires_at;
  end if;
  -- the times are the database's, whatever the client sends
  begin
    insert into public.stories (author_id, media_url, media_path, media_type, expires_at)
    values ('a11ce000-0000-4000-8000-000000000001', 'https://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001/a.jpg', 'image', now() + interval '1 year');
    raise exception 'FAIL: a client chose expires_at';
  exception when insufficient_privilege then null;
  end;
  begin
    perform pg_temp.story('b0b00000-0000-4000-8000-000000000002', 'as_bob.jpg');
    raise exception 'FAIL: alice posted a story as bob';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.stories set media_url = 'https://x.example/b.jpg';
    raise exception 'FAIL: a client updated a story';
  exception when insufficient_privilege then null;
  end;
  -- the file must be hers, and an image or a video with an http(s) URL
  foreach c in array array[
      $q$'https://x.example/a.jpg', 'b0b00000-0000-4000-8000-000000000002/a.jpg', 'image'$q$,
      $q$'https://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001', 'image'$q$,
      $q$'https://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001/', 'image'$q$,
      $q$'https://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001/../b0b00000-0000-4000-8000-000000000002/a.jpg', 'image'$q$,
      $q$'https://x.example/a.jpg', 'A11CE000-0000-4000-8000-000000000001/a.jpg', 'image'$q$,
      $q$'https://x.example/a.gif', 'a11ce000-0000-4000-8000-000000000001/a.gif', 'gif'$q$,
      $q$'ftp://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001/a.jpg', 'image'$q$] loop
    begin
      execute 'insert into public.stories (author_id, media_url, media_path, media_type) values (''a11ce000-0000-4000-8000-000000000001'', ' || c || ')';
      bad := concat_ws(' | ', bad, c);
    exception when check_violation then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: stories accepted: %', bad; end if;
  perform pg_temp.login(null);
  begin
    perform pg_temp.story('a11ce000-0000-4000-8000-000000000001', 'anon.jpg');
    raise exception 'FAIL: anon posted a story';
  exception when insufficient_privilege then null;
  end;
  perform pg_temp.logout();
end $$;

-- Stories of everyone (as their authors), then expired ones, made as the owner with the
-- triggers off (session_replication_role): one that expired a minute ago, one 2 hours ago.
do $$ begin
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  perform pg_temp.story('b0b00000-0000-4000-8000-000000000002', 'bob1.mp4', 'video');
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  perform pg_temp.story('ca201000-0000-4000-8000-000000000003', 'carol1.jpg');
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  perform pg_temp.story('d0000000-0000-4000-8000-000000000004', 'dave1.png');
  perform pg_temp.logout();
end $$;
set local session_replication_role = replica;
insert into public.stories (author_id, media_url, media_path, media_type, created_at, expires_at) values
  ('b0b00000-0000-4000-8000-000000000002', 'https://x.example/bobOld.jpg', 'b0b00000-0000-4000-8000-000000000002/bobOld.jpg', 'image',
   now() - interval '24 hours 1 minute', now() - interval '1 minute'),
  ('a11ce000-0000-4000-8000-000000000001', 'https://x.example/aliceOld.jpg', 'a11ce000-0000-4000-8000-000000000001/aliceOld.jpg', 'image',
   now() - interval '26 hours', now() - interval '2 hours'),
  ('a11ce000-0000-4000-8000-000000000001', 'https://x.example/aliceShared.jpg', 'a11ce000-0000-4000-8000-000000000001/aliceShared.jpg', 'image',
   now() - interval '26 hours', now() - interval '2 hours');
set local session_replication_role = origin;
-- the same file in a live story of alice's as well: the purge must keep it
do $$ begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  perform pg_temp.story('a11ce000-0000-4000-8000-000000000001', 'aliceShared.jpg');
  perform pg_temp.logout();
end $$;

-- ============ reads ============
do $$
declare got text; hint text; n int;
begin
  -- expired stories: in the table, returned to nobody
  if (select count(*) from public.stories where expires_at <= now()) <> 3 then raise exception 'FAIL: the expired fixtures'; end if;
  perform pg_temp.login(null);
  select string_agg(split_part(media_path, '/', 2), ' ' order by media_path) into got from public.stories;
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4 dave1.png' then raise exception 'FAIL: anon reads stories %', got; end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  select string_agg(split_part(media_path, '/', 2), ' ' order by media_path) into got from public.stories;
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4 dave1.png' then raise exception 'FAIL: alice reads stories %', got; end if;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(*) into n from public.stories where media_path like 'ca201000%';
  if n <> 1 then raise exception 'FAIL: carol reads her own story % times', n; end if;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  if exists (select 1 from public.stories where media_path like '%Old%') then raise exception 'FAIL: bob reads his expired story'; end if;

  -- active_stories: the caller's own and those of the profiles they follow, visible, unexpired, by author
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');   -- follows bob
  got := pg_temp.active();
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4' then raise exception 'FAIL: alice''s active stories: %', got; end if;
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');   -- follows alice and bob
  got := pg_temp.active();
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4 dave1.png' then raise exception 'FAIL: dave''s active stories: %', got; end if;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');   -- private, follows bob
  got := pg_temp.active();
  if got <> 'bob1.mp4 carol1.jpg' then raise exception 'FAIL: carol''s active stories: %', got; end if;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');   -- follows nobody
  got := pg_temp.active();
  if got <> 'bob1.mp4' then raise exception 'FAIL: bob''s active stories: %', got; end if;
  -- a followed profile that turns private: gone from its followers' stories
  perform pg_temp.logout();
  update public.profiles set is_public = false where id = 'b0b00000-0000-4000-8000-000000000002';
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  got := pg_temp.active();
  if got <> 'alice1.jpg aliceShared.jpg' then raise exception 'FAIL: alice''s active stories with bob private: %', got; end if;
  perform pg_temp.logout();
  update public.profiles set is_public = true where id = 'b0b00000-0000-4000-8000-000000000002';
  -- anonymous: PT401
  perform pg_temp.login(null);
  begin
    perform public.active_stories();
    raise exception 'FAIL: anonymous active_stories';
  exception when sqlstate 'PT401' then
    get stacked diagnostics hint = pg_exception_hint;
    if hint <> 'authentication_required' then raise exception 'FAIL: hint %', hint; end if;
  end;

  -- removal: her own only
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  delete from public.stories where media_path like 'd0000000%';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice removed dave''s story'; end if;
  delete from public.stories where media_path = 'a11ce000-0000-4000-8000-000000000001/alice1.jpg';
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: alice could not remove her story'; end if;
  perform pg_temp.logout();
end $$;

-- ============ the bucket ============
do $$ begin
  if not exists (select 1 from storage.buckets where id = 'stories' and public and file_size_limit = 15728640
                 and allowed_mime_types = array['image/jpeg', 'image/png', 'video/mp4', 'video/quicktime']) then
    raise exception 'FAIL: the stories bucket';
  end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  insert into storage.objects (bucket_id, name) values ('stories', 'a11ce000-0000-4000-8000-000000000001/1740912672_3f9c1a2b.mp4');
  begin
    insert into storage.objects (bucket_id, name) values ('stories', 'b0b00000-0000-4000-8000-000000000002/1740912672_3f9c1a2b.mp4');
    raise exception 'FAIL: alice uploaded into bob''s stories folder';
  exception when insufficient_privilege then null;
  end;
  perform pg_temp.logout();
end $$;

-- ============ the purge ============
-- Objects for the stories (as Storage would have them), and one of the same name elsewhere.
insert into storage.objects (bucket_id, name)
select distinct 'stories', media_path from public.stories;
insert into storage.objects (bucket_id, name) values ('avatars', 'a11ce000-0000-4000-8000-000000000001/aliceOld.jpg');

-- Supabase Storage's guard (storage PR #817), as it stands: a plain DELETE on storage.objects
-- fails unless the transaction sets storage.allow_delete_query.
create function pg_temp.protect_delete() returns trigger language plpgsql as $$
begin
  if current_setting('storage.allow_delete_query', true) is distinct from 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
  end if;
  return null;
end $$;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function pg_temp.protect_delete();

do $$
declare n int; left_over text;
begin
  -- the guard works
  begin
    delete from storage.objects where bucket_id = 'nowhere';
    raise exception 'FAIL: the guard let a delete through';
  exception when insufficient_privilege then null;
  end;
  -- clients and anon may not purge; the service role may
  if has_function_privilege('authenticated', 'social_private.purge_expired_stories()', 'execute')
     or has_function_privilege('anon', 'social_private.purge_expired_stories()', 'execute')
     or not has_function_privilege('service_role', 'social_private.purge_expired_stories()', 'execute') then
    raise exception 'FAIL: who may purge';
  end if;
  set local role service_role;
  n := social_private.purge_expired_stories();
  reset role;
  -- alice's two stories that expired 2 hours ago go; bob's that expired a minute ago stays
  if n <> 2 then raise exception 'FAIL: the purge removed % stories, 2 expected', n; end if;
  if exists (select 1 from public.stories where media_path like '%/aliceOld.jpg')
     or not exists (select 1 from public.stories where media_path like '%/bobOld.jpg') then
    raise exception 'FAIL: the purge removed the wrong stories';
  end if;
  -- their objects go, except one a remaining story still shows, and nothing outside the bucket
  select string_agg(bucket_id || ':' || split_part(name, '/', 2), ' ' order by bucket_id, name) into left_over
  from storage.objects where name like '%Old%' or name like '%Shared%';
  if left_over <> 'avatars:aliceOld.jpg stories:aliceShared.jpg stories:bobOld.jpg' then
    raise exception 'FAIL: objects after the purge: %', left_over;
  end if;
  -- the guard is back on afterwards
  if current_setting('storage.allow_delete_query', true) = 'true' then
    raise exception 'FAIL: the purge left storage.allow_delete_query on';
  end if;
  -- nothing more to do: 0
  if social_private.purge_expired_stories() <> 0 then raise exception 'FAIL: a second purge'; end if;
end $$;

rollback;
