-- avatars: only into the owner's lower-case folder.
\set ON_ERROR_STOP 1
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
insert into storage.objects (bucket_id, name) values ('avatars', 'a11ce000-0000-4000-8000-000000000001/1740912672_3f9c1a2b.jpg');
do $$ begin
  begin
    insert into storage.objects (bucket_id, name) values ('avatars', 'A11CE000-0000-4000-8000-000000000001/1740912672_3f9c1a2c.jpg');
    raise exception 'FAIL: an upper-case folder passed the policy';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into storage.objects (bucket_id, name) values ('avatars', 'b0b00000-0000-4000-8000-000000000002/1740912672_3f9c1a2b.jpg');
    raise exception 'FAIL: alice uploaded into bob''s folder';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;
insert into storage.objects (bucket_id, name, owner) values ('avatars', 'b0b00000-0000-4000-8000-000000000002/1.jpg', 'b0b00000-0000-4000-8000-000000000002');
set role authenticated;
do $$
declare n int;
begin
  delete from storage.objects where name like 'b0b00000%';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice deleted bob''s avatar'; end if;
  if (select count(*) from storage.objects) <> 1 then raise exception 'FAIL: alice lists only her own objects'; end if;
end $$;
reset role;
