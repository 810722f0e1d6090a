-- post-images (migration 004300, issue 54): a public bucket with an avatar's limits, and only the
-- owner's lower-case folder may be written, read, changed or emptied.
\set ON_ERROR_STOP 1
do $$ begin
  if not exists (select 1 from storage.buckets where id = 'post-images' and public and file_size_limit = 5242880
                 and allowed_mime_types = array['image/jpeg', 'image/png']) then
    raise exception 'FAIL: the post-images bucket';
  end if;
end $$;
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
insert into storage.objects (bucket_id, name) values ('post-images', 'a11ce000-0000-4000-8000-000000000001/1740912672_3f9c1a2b.png');
do $$ begin
  begin
    insert into storage.objects (bucket_id, name) values ('post-images', 'b0b00000-0000-4000-8000-000000000002/1740912672_3f9c1a2b.png');
    raise exception 'FAIL: alice uploaded into bob''s post images';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into storage.objects (bucket_id, name) values ('post-images', 'A11CE000-0000-4000-8000-000000000001/1740912672_3f9c1a2c.png');
    raise exception 'FAIL: an upper-case folder passed the policy';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;
insert into storage.objects (bucket_id, name) values ('post-images', 'b0b00000-0000-4000-8000-000000000002/1740912672_3f9c1a2d.png');
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare seen int;
begin
  select count(*) into seen from storage.objects where bucket_id = 'post-images';
  if seen <> 1 then raise exception 'FAIL: alice lists % post images, not only her own', seen; end if;
  delete from storage.objects where bucket_id = 'post-images' and name like 'b0b00000%';
  if not found then null; else raise exception 'FAIL: alice deleted bob''s post image'; end if;
end $$;
reset role;
do $$ begin
  if (select count(*) from storage.objects where bucket_id = 'post-images') <> 2 then
    raise exception 'FAIL: a post image went missing';
  end if;
end $$;
