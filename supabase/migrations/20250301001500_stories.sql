-- social-gateway schema, part 16: stories (issue 19; seed 004's Story): an image or a video
-- that lives 24 hours, its file in the public `stories` bucket.
--
-- Times are the database's: a BEFORE INSERT trigger sets created_at to now() and expires_at to
-- 24 hours later whatever the client sent, and a check keeps the two 24 hours apart, so no
-- client can make a story last longer. A story is readable while it has not expired and its
-- author's profile is visible to the caller (the posts rule); an expired story is returned by
-- no path, its author's own reads included. A user adds and removes their own stories only;
-- nobody edits one. social_private.purge_expired_stories removes the rows an hour after they
-- expire, with their objects' rows in the bucket; where pg_cron is installed it runs every
-- ten minutes.
--
-- The file lives at `stories/<author uid>/<name>` (the avatars layout: the folder is the id in
-- lower case, as auth.uid()::text prints it); media_path is that object name, media_url its
-- public URL. The path must be in the author's folder (a check), so a story can never name,
-- and the purge never remove, somebody else's file.

create table public.stories (
  id          uuid primary key default gen_random_uuid(),
  author_id   uuid not null references public.profiles (id) on delete cascade,
  media_url   text not null,
  media_path  text not null,
  media_type  text not null check (media_type in ('image', 'video')),
  created_at  timestamptz not null default now(),
  expires_at  timestamptz not null default now() + interval '24 hours',
  constraint stories_expires_24h check (expires_at = created_at + interval '24 hours'),
  constraint stories_media_url_format check (media_url ~ '^https?://' and octet_length(media_url) <= 2048),
  constraint stories_media_path_owner check (
    left(media_path, 37) = author_id::text || '/' and char_length(media_path) > 37
    and octet_length(media_path) <= 1024 and media_path !~ '(^|/)\.\.?(/|$)' and media_path !~ '//')
);
-- The stories of many authors, active ones only (active_stories), by author then expiry.
create index stories_author_expires_idx on public.stories (author_id, expires_at);
-- The purge's scan for long-expired rows.
create index stories_expires_idx on public.stories (expires_at);

create or replace function public.stories_set_times() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.created_at := now();
  new.expires_at := new.created_at + interval '24 hours';
  return new;
end $$;
create trigger stories_set_times before insert on public.stories
  for each row execute function public.stories_set_times();

alter table public.stories enable row level security;
revoke all on public.stories from anon, authenticated;
grant select on public.stories to anon, authenticated;
grant insert (id, author_id, media_url, media_path, media_type) on public.stories to authenticated;
grant delete on public.stories to authenticated;
grant all on public.stories to service_role;

-- now() is the transaction's start: a story expiring during a request is still returned by it.
create policy stories_read on public.stories for select to anon, authenticated
  using (
    expires_at > now()
    and exists (select 1 from public.profiles a
                where a.id = stories.author_id and (a.is_public or a.id = (select auth.uid()))));
create policy stories_insert_own on public.stories for insert to authenticated
  with check (author_id = (select auth.uid()));
create policy stories_delete_own on public.stories for delete to authenticated
  using (author_id = (select auth.uid()));

-- ============ the `stories` bucket ============
-- Public like `avatars` (000300): files are fetched by URL without a policy; SELECT stays
-- owner-only so nobody lists other people's files, and x-upsert needs SELECT + UPDATE.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('stories', 'stories', true, 15728640,
        array['image/jpeg', 'image/png', 'video/mp4', 'video/quicktime'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create policy "stories owner read" on storage.objects for select to authenticated
  using (bucket_id = 'stories' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "stories owner insert" on storage.objects for insert to authenticated
  with check (bucket_id = 'stories' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "stories owner update" on storage.objects for update to authenticated
  using      (bucket_id = 'stories' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'stories' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "stories owner delete" on storage.objects for delete to authenticated
  using (bucket_id = 'stories' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- ============ purge ============
-- Deletes the stories that expired more than an hour ago (the hour leaves a request that read
-- one just before it expired time to fetch its file) and the rows of their objects in the
-- bucket, unless another remaining story names the same object; returns how many stories went.
-- SECURITY DEFINER: it deletes every user's rows. Only the service role (and pg_cron, which
-- runs as the migration's role) may call it.
--
-- Supabase Storage refuses a plain SQL DELETE on storage.objects unless the transaction sets
-- `storage.allow_delete_query` (its protect_delete trigger, storage PR #817): set here, for
-- this transaction only, around that one statement. Deleting the row does not delete the file
-- in the storage backend, which Storage's API alone can do: the file can no longer be served
-- or listed, but its bytes stay (an Edge Function calling the API is the way to reclaim them).
create or replace function social_private.purge_expired_stories() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  paths text[];
  n integer;
  allow_delete text := current_setting('storage.allow_delete_query', true);
begin
  with gone as (
    delete from public.stories where expires_at < now() - interval '1 hour' returning media_path
  )
  select count(*)::int, coalesce(array_agg(distinct media_path), '{}') into n, paths from gone;
  if cardinality(paths) > 0 then
    perform set_config('storage.allow_delete_query', 'true', true);
    delete from storage.objects o
    where o.bucket_id = 'stories' and o.name = any (paths)
      and not exists (select 1 from public.stories s where s.media_path = o.name);
    perform set_config('storage.allow_delete_query', coalesce(allow_delete, ''), true);
  end if;
  return n;
end $$;
revoke execute on function social_private.purge_expired_stories() from public, anon, authenticated;
grant usage on schema social_private to service_role;
grant execute on function social_private.purge_expired_stories() to service_role;

-- Every ten minutes where pg_cron is installed (on Supabase: Database > Extensions > pg_cron,
-- then apply this file, or run the cron.schedule statement below once). A plain PostgreSQL
-- without it applies the rest of this file; the rows stay hidden once expired either way.
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('purge-expired-stories', '*/10 * * * *',
                          'select social_private.purge_expired_stories()');
  elsif exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    raise notice 'pg_cron is available but not installed: expired stories are purged only when '
      'social_private.purge_expired_stories() is called (install pg_cron, then run: select '
      'cron.schedule(''purge-expired-stories'', ''*/10 * * * *'', ''select social_private.purge_expired_stories()''))';
  end if;
end $$;
