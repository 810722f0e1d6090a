-- social-gateway schema, part 43: the public `post-images` bucket (issue 54): images uploaded
-- with a post, by an avatar's rules (5 MB, JPEG or PNG), with the same owner-only policies.
--
-- Objects live at `{uid}/{unix}_{8 hex}.{jpg|png}`, the first folder the owner's id in lower
-- case. Public URLs (`/storage/v1/object/public/post-images/...`) need no policy; SELECT is
-- owner-only so nobody can list other people's files, and x-upsert needs SELECT + UPDATE.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('post-images', 'post-images', true, 5242880, array['image/jpeg', 'image/png'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

create policy "post images owner read" on storage.objects for select to authenticated
  using (bucket_id = 'post-images' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "post images owner insert" on storage.objects for insert to authenticated
  with check (bucket_id = 'post-images' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "post images owner update" on storage.objects for update to authenticated
  using      (bucket_id = 'post-images' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'post-images' and (storage.foldername(name))[1] = (select auth.uid())::text);
create policy "post images owner delete" on storage.objects for delete to authenticated
  using (bucket_id = 'post-images' and (storage.foldername(name))[1] = (select auth.uid())::text);
