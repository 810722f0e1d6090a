-- stories (migrations 20250301001500, active_stories of 001600, create_story of 002000): times
-- set by the database, who reads, adds and removes what, an expired story returned by no path,
-- active_stories' rule, the bucket's folders, and the purge of long-expired rows and their objects.
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
-- Files are named as the gateway names them (`<uid>/<unix>_<8 hex>.<ext>`, which create_story
-- requires); `file` is a label for the assertions, kept in pg_temp.labels.
create temp table labels (path text primary key, label text not null);
grant select, insert on labels to anon, authenticated;
create function pg_temp.path_for(who uuid, file text) returns text language sql immutable as $$
  select who::text || '/1740912672_' || left(md5(file), 8) || '.' || split_part(file, '.', 2)
$$;
create function pg_temp.url_for(path text) returns text language sql immutable as $$
  select 'https://ref.supabase.co/storage/v1/object/public/stories/' || path
$$;
create function pg_temp.label(path text) returns text language sql stable as $$
  select coalesce((select l.label from pg_temp.labels l where l.path = $1), split_part($1, '/', 2))
$$;
-- A story for `who` as the gateway makes one: the file (as Storage records it), then
-- public.create_story (PostgREST POST /rest/v1/rpc/create_story).
create function pg_temp.story(who uuid, file text, kind text default 'image') returns public.stories
language plpgsql as $$
declare p text := pg_temp.path_for(who, file); s public.stories;
begin
  insert into pg_temp.labels values (p, file) on conflict do nothing;
  insert into storage.objects (bucket_id, name) values ('stories', p) on conflict do nothing;
  select * into s from public.create_story(p, kind, pg_temp.url_for(p));
  return s;
end $$;
-- The file names of the caller's active_stories, by author then name, after checking that
-- the rows come by author, then age (then id).
create function pg_temp.active() returns text language plpgsql as $$
declare got text; in_order boolean;
begin
  select coalesce(string_agg(pg_temp.label(s.media_path), ' ' order by s.author_id, pg_temp.label(s.media_path)), ''),
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
  -- no direct insert (issue 37): the times, the URL and the file are create_story's to check
  begin
    insert into public.stories (author_id, media_url, media_path, media_type, expires_at)
    values ('a11ce000-0000-4000-8000-000000000001', 'https://x.example/a.jpg', 'a11ce000-0000-4000-8000-000000000001/a.jpg', 'image', now() + interval '1 year');
    raise exception 'FAIL: a client inserted a story row';
  exception when insufficient_privilege then null;
  end;
  begin
    perform public.create_story(pg_temp.path_for('b0b00000-0000-4000-8000-000000000002', 'as_bob.jpg'), 'image',
                                pg_temp.url_for(pg_temp.path_for('b0b00000-0000-4000-8000-000000000002', 'as_bob.jpg')));
    raise exception 'FAIL: alice posted a story as bob';
  exception when sqlstate '22023' then null;
  end;
  begin
    update public.stories set media_url = 'https://x.example/b.jpg';
    raise exception 'FAIL: a client updated a story';
  exception when insufficient_privilege then null;
  end;
  -- the file must be hers, named as the gateway names it, an image or a video of its extension,
  -- at the project's URL of that very file (media_path, media_type, media_url)
  foreach c in array array[
      $q$'b0b00000-0000-4000-8000-000000000002/1740912672_0badf00d.jpg', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/b0b00000-0000-4000-8000-000000000002/1740912672_0badf00d.jpg'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/../b0b00000-0000-4000-8000-000000000002/1740912672_0badf00d.jpg', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/../b0b00000-0000-4000-8000-000000000002/1740912672_0badf00d.jpg'$q$,
      $q$'A11CE000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/A11CE000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.gif', 'gif', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.gif'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg', 'video', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.mp4', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.mp4'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg', 'image', 'ftp://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg', 'image', 'https://x.example/a.jpg'$q$,
      $q$'a11ce000-0000-4000-8000-000000000001/1740912672_0badf00d.jpg', 'image', 'https://r.supabase.co/storage/v1/object/public/stories/a11ce000-0000-4000-8000-000000000001/1740912672_0badf00e.jpg'$q$] loop
    begin
      execute 'select public.create_story(' || c || ')';
      bad := concat_ws(' | ', bad, c);
    exception when sqlstate '22023' then null;
    end;
  end loop;
  if bad is not null then raise exception 'FAIL: stories accepted: %', bad; end if;
  perform pg_temp.login(null);
  begin
    perform public.create_story(pg_temp.path_for('a11ce000-0000-4000-8000-000000000001', 'anon.jpg'), 'image',
                                pg_temp.url_for(pg_temp.path_for('a11ce000-0000-4000-8000-000000000001', 'anon.jpg')));
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
insert into pg_temp.labels
select pg_temp.path_for(who, file), file
from (values ('b0b00000-0000-4000-8000-000000000002'::uuid, 'bobOld.jpg'), ('a11ce000-0000-4000-8000-000000000001', 'aliceOld.jpg'),
             ('a11ce000-0000-4000-8000-000000000001', 'aliceShared.jpg')) v(who, file);
insert into public.stories (author_id, media_url, media_path, media_type, created_at, expires_at)
select who, pg_temp.url_for(pg_temp.path_for(who, file)), pg_temp.path_for(who, file), 'image', created, expires
from (values
  ('b0b00000-0000-4000-8000-000000000002'::uuid, 'bobOld.jpg', now() - interval '24 hours 1 minute', now() - interval '1 minute'),
  ('a11ce000-0000-4000-8000-000000000001', 'aliceOld.jpg', now() - interval '26 hours', now() - interval '2 hours'),
  ('a11ce000-0000-4000-8000-000000000001', 'aliceShared.jpg', now() - interval '26 hours', now() - interval '2 hours')) v(who, file, created, expires);
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
  -- anon reads none: the gateway shows stories to signed-in viewers only (issue 37)
  perform pg_temp.login(null);
  select count(*) into n from public.stories;
  if n <> 0 then raise exception 'FAIL: anon reads % stories', n; end if;
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  select string_agg(pg_temp.label(media_path), ' ' order by pg_temp.label(media_path)) into got from public.stories;
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4 dave1.png' then raise exception 'FAIL: alice reads stories %', got; end if;
  perform pg_temp.login('ca201000-0000-4000-8000-000000000003');
  select count(*) into n from public.stories where media_path like 'ca201000%';
  if n <> 1 then raise exception 'FAIL: carol reads her own story % times', n; end if;
  perform pg_temp.login('b0b00000-0000-4000-8000-000000000002');
  if exists (select 1 from public.stories where pg_temp.label(media_path) like '%Old%') then raise exception 'FAIL: bob reads his expired story'; end if;

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
  -- a followed profile that turns private: still in its followers' stories (they keep their
  -- follow, and approved followers see a private profile whole: migration 002300)
  perform pg_temp.logout();
  update public.profiles set is_public = false where id = 'b0b00000-0000-4000-8000-000000000002';
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  got := pg_temp.active();
  if got <> 'alice1.jpg aliceShared.jpg bob1.mp4' then raise exception 'FAIL: alice''s active stories with bob private: %', got; end if;
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
  delete from public.stories where media_path = pg_temp.path_for('a11ce000-0000-4000-8000-000000000001', 'alice1.jpg');
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
select distinct 'stories', media_path from public.stories
on conflict do nothing;
insert into storage.objects (bucket_id, name) values ('avatars', pg_temp.path_for('a11ce000-0000-4000-8000-000000000001', 'aliceOld.jpg'));

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
  if exists (select 1 from public.stories where pg_temp.label(media_path) = 'aliceOld.jpg')
     or not exists (select 1 from public.stories where pg_temp.label(media_path) = 'bobOld.jpg') then
    raise exception 'FAIL: the purge removed the wrong stories';
  end if;
  -- their objects go, except one a remaining story still shows, and nothing outside the bucket
  select string_agg(bucket_id || ':' || pg_temp.label(name), ' ' order by bucket_id, pg_temp.label(name)) into left_over
  from storage.objects where pg_temp.label(name) like '%Old%' or pg_temp.label(name) like '%Shared%';
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
