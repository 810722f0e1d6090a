-- Test users, created as a project would: rows in auth.users, whose trigger makes profiles.
-- alice, bob, dave are public; carol is private.
\set ON_ERROR_STOP 1
insert into auth.users (id, email) values
  ('a11ce000-0000-4000-8000-000000000001', 'alice@example.com'),
  ('b0b00000-0000-4000-8000-000000000002', 'bob@example.com'),
  ('ca201000-0000-4000-8000-000000000003', 'carol@example.com'),
  ('d0000000-0000-4000-8000-000000000004', 'dave@example.com');
update public.profiles set handle = 'alice_wonder', display_name = 'Alice' where id = 'a11ce000-0000-4000-8000-000000000001';
update public.profiles set handle = 'Bob_Builder', display_name = '100% Bob' where id = 'b0b00000-0000-4000-8000-000000000002';
update public.profiles set handle = 'carol_creator', is_public = false where id = 'ca201000-0000-4000-8000-000000000003';
update public.profiles set handle = 'dave_dyno', display_name = 'Dave_Under' where id = 'd0000000-0000-4000-8000-000000000004';

do $$ begin
  if (select count(*) from public.profiles) <> 4 then
    raise exception 'FAIL: the auth.users trigger should have created 4 profiles';
  end if;
  if (select display_name from public.profiles where id = 'ca201000-0000-4000-8000-000000000003') <> 'carol' then
    raise exception 'FAIL: new profiles take the e-mail''s local part as display name';
  end if;
end $$;
