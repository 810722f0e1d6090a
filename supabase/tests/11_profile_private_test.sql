-- profile_private (migration 20250301001000): the owner-only fields. Every profile has a row;
-- only its owner reads it; the owner writes the ZIP and the grade scales, never the premium
-- status; the rules hold in the table; sign-up takes a handle and a ZIP from the metadata.
\set ON_ERROR_STOP 1

do $$ begin
  if (select count(*) from public.profile_private) <> (select count(*) from public.profiles) then
    raise exception 'FAIL: every profile has its profile_private row';
  end if;
end $$;

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare n integer;
begin
  if (select count(*) from public.profile_private) <> 1 then
    raise exception 'FAIL: alice reads her own row and no other';
  end if;
  update public.profile_private set home_zip = '80302', preferred_grade_scale_boulder = 'V'
    where id = 'a11ce000-0000-4000-8000-000000000001';
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: alice updates her own ZIP'; end if;
  update public.profile_private set home_zip = '10115' where id = 'b0b00000-0000-4000-8000-000000000002';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice updated bob''s ZIP'; end if;
  begin
    update public.profile_private set premium_product_id = 'free.premium'
      where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: the owner wrote her premium status';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.profile_private set home_zip = '<script>' where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: a malformed ZIP was stored';
  exception when check_violation then null;
  end;
end $$;
reset role;

set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  begin
    perform 1 from public.profile_private;
    raise exception 'FAIL: anon read profile_private';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;

-- The service role writes premium status whole, or not at all.
set role service_role;
do $$ begin
  update public.profile_private set premium_expires_at = '2027-01-01T00:00:00Z', premium_product_id = 'premium.yearly',
    premium_original_transaction_id = '2000000812345678' where id = 'a11ce000-0000-4000-8000-000000000001';
  begin
    update public.profile_private set premium_product_id = 'premium.monthly', premium_expires_at = null
      where id = 'b0b00000-0000-4000-8000-000000000002';
    raise exception 'FAIL: a partial premium status was stored';
  exception when check_violation then null;
  end;
end $$;
reset role;

-- Sign-up with seed 000's createProfile fields in the metadata.
insert into auth.users (id, email, raw_user_meta_data) values
  ('e0000000-0000-4000-8000-000000000005', 'erin@example.com', '{"handle":"Erin_Edge","home_zip":" SW1A 1AA "}'),
  ('f0000000-0000-4000-8000-000000000006', 'finn@example.com', '{"handle":"ALICE_wonder","home_zip":"no!"}');
do $$ begin
  if (select handle from public.profiles where id = 'e0000000-0000-4000-8000-000000000005') <> 'Erin_Edge' then
    raise exception 'FAIL: sign-up takes a free, valid handle from the metadata';
  end if;
  if (select home_zip from public.profile_private where id = 'e0000000-0000-4000-8000-000000000005') is distinct from 'SW1A 1AA' then
    raise exception 'FAIL: sign-up takes the trimmed ZIP from the metadata';
  end if;
  if (select handle from public.profiles where id = 'f0000000-0000-4000-8000-000000000006') <> 'user_f00000000000' then
    raise exception 'FAIL: a taken handle falls back to the generated one';
  end if;
  if (select home_zip from public.profile_private where id = 'f0000000-0000-4000-8000-000000000006') is not null then
    raise exception 'FAIL: a malformed ZIP is left out';
  end if;
end $$;
delete from auth.users where id in ('e0000000-0000-4000-8000-000000000005', 'f0000000-0000-4000-8000-000000000006');
update public.profile_private set home_zip = null, preferred_grade_scale_boulder = null, premium_expires_at = null,
  premium_product_id = null, premium_original_transaction_id = null;
