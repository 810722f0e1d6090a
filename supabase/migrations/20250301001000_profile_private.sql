-- social-gateway schema, part 11: seed 000's owner-only profile fields, and createProfile's
-- handle and ZIP at sign-up.
--
-- SCProfile carries homeZIP, two preferred grade scales and a premium status (expiry, product,
-- original transaction). Only the owner may read them. Row-level security filters rows, not
-- columns, and `profiles_read` lets anyone read a public profile's row, so these fields cannot
-- live in `profiles`: anyone holding the project's anon key could select them through PostgREST.
-- They get a table of their own, one row per profile (made by a trigger), which only its owner
-- can select. The owner may update the ZIP and the scales (column grants); the premium columns
-- are written by the service role only, after a purchase is verified elsewhere.
create table public.profile_private (
  id                                uuid primary key references public.profiles (id) on delete cascade,
  home_zip                          text,
  preferred_grade_scale_boulder     text,
  preferred_grade_scale_route       text,
  premium_expires_at                timestamptz,
  premium_product_id                text,
  premium_original_transaction_id   text,
  updated_at                        timestamptz not null default now(),
  -- HomeZIPRule: 2-10 letters, digits, spaces or hyphens, a letter or digit first.
  constraint profile_private_home_zip_format check (home_zip is null or home_zip ~ '^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$'),
  -- 20 characters of 32 bytes at most (UpdateProfile.maxGradeScaleLength, maxBytesPerCharacter).
  constraint profile_private_boulder_bytes check (preferred_grade_scale_boulder is null or octet_length(preferred_grade_scale_boulder) <= 640),
  constraint profile_private_route_bytes   check (preferred_grade_scale_route is null or octet_length(preferred_grade_scale_route) <= 640),
  -- a premium status is whole or absent
  constraint profile_private_premium_whole check (
    (premium_expires_at is null) = (premium_product_id is null)
    and (premium_product_id is null) = (premium_original_transaction_id is null))
);

create or replace function public.profile_private_touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;
create trigger profile_private_touch_updated_at before update on public.profile_private
  for each row execute function public.profile_private_touch_updated_at();

-- Every profile has its row, however the profile was made (sign-up, a client's insert).
create or replace function public.profiles_create_private() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profile_private (id) values (new.id) on conflict (id) do nothing;
  return new;
end $$;
revoke execute on function public.profiles_create_private() from public;
create trigger profiles_create_private after insert on public.profiles
  for each row execute function public.profiles_create_private();
insert into public.profile_private (id) select id from public.profiles on conflict (id) do nothing;

alter table public.profile_private enable row level security;
grant select on public.profile_private to authenticated;
grant update (home_zip, preferred_grade_scale_boulder, preferred_grade_scale_route)
  on public.profile_private to authenticated;
grant all on public.profile_private to service_role;
create policy profile_private_read_own on public.profile_private for select to authenticated
  using (id = (select auth.uid()));
create policy profile_private_update_own on public.profile_private for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- Sign-up: seed 000's createProfile(id, handle, photoURL, homeZIP). A client signing up may
-- pass `handle` and `home_zip` in the user's metadata (`options.data` of `auth.signUp`). A handle
-- that breaks the rule or is taken falls back to the generated one, and a malformed ZIP is left
-- out, so that a sign-up never fails on its profile; the client can check the handle first
-- (handle_available) and rename later. No photo URL: an avatar is set only by uploading one.
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  wanted text := new.raw_user_meta_data ->> 'handle';
  zip text := btrim(new.raw_user_meta_data ->> 'home_zip');
  display text := nullif(left(split_part(coalesce(new.email, ''), '@', 1), 50), '');
  created boolean := false;
begin
  if wanted ~ '^[a-zA-Z][a-zA-Z0-9_]{2,29}$' then
    begin
      insert into public.profiles (id, handle, display_name) values (new.id, wanted, display);
      created := true;
    exception when unique_violation then
      null;  -- taken (perhaps by a concurrent sign-up): the generated handle below
    end;
  end if;
  if not created then
    insert into public.profiles (id, handle, display_name)
    values (new.id, 'user_' || substr(replace(new.id::text, '-', ''), 1, 12), display);
  end if;
  if zip ~ '^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$' then
    update public.profile_private set home_zip = zip where id = new.id;
  end if;
  return new;
end $$;
revoke execute on function public.handle_new_user() from public;
