-- profiles: who may read and who may update.
\set ON_ERROR_STOP 1

-- Anonymous callers see public profiles only.
set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  if (select count(*) from public.profiles) <> 3 then
    raise exception 'FAIL: anon should see the 3 public profiles, saw %', (select count(*) from public.profiles);
  end if;
  if exists (select 1 from public.profiles where handle = 'carol_creator') then
    raise exception 'FAIL: anon must not see the private profile';
  end if;
end $$;
reset role;

-- Alice sees public profiles; carol sees her own private one.
set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$ begin
  if exists (select 1 from public.profiles where id = 'ca201000-0000-4000-8000-000000000003') then
    raise exception 'FAIL: alice must not see carol''s private profile';
  end if;
end $$;

-- A user cannot update another's profile: the row is simply not found (0 rows).
do $$
declare n int;
begin
  update public.profiles set bio = 'hacked' where id = 'b0b00000-0000-4000-8000-000000000002';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: alice updated bob''s profile'; end if;
end $$;

-- ... nor move her own row to another id, nor write the counters.
do $$ begin
  begin
    update public.profiles set follower_count = 1000 where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: counters must not be writable by clients';
  exception when insufficient_privilege then null;
  end;
  begin
    insert into public.profiles (id, handle) values ('b0b00000-0000-4000-8000-00000000ffff', 'sneaky_one');
    raise exception 'FAIL: alice inserted a profile for someone else';
  exception when insufficient_privilege then null;
  end;
end $$;

-- The owner updates her own profile; updated_at moves, handle_lower follows the handle.
do $$
declare before timestamptz;
begin
  select updated_at into before from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001';
  perform pg_sleep(0.01);
  update public.profiles set bio = 'Crimps and coffee', home_gym = 'The Arch', climbing_since = '2019-04-01'
  where id = 'a11ce000-0000-4000-8000-000000000001';
  if (select updated_at from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <= before then
    raise exception 'FAIL: updated_at did not move';
  end if;
  if (select handle_lower from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <> 'alice_wonder' then
    raise exception 'FAIL: handle_lower';
  end if;
end $$;

-- Handles are unique case-insensitively: 23505 on profiles_handle_lower_key.
do $$ begin
  begin
    update public.profiles set handle = 'BOB_builder' where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: a handle differing only in case was accepted';
  exception when unique_violation then
    null;
  end;
end $$;

-- Text limits are UTF-8 bytes since 20250301000600 (the gateway counts characters, 32 bytes
-- each at most): a display name of 400 four-byte emoji (1600 bytes) fits, 401 do not.
do $$ begin
  update public.profiles set display_name = repeat('🧗', 400) where id = 'a11ce000-0000-4000-8000-000000000001';
  begin
    update public.profiles set display_name = repeat('🧗', 401) where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: 1604 bytes accepted';
  exception when check_violation then null;
  end;
  update public.profiles set display_name = 'Alice' where id = 'a11ce000-0000-4000-8000-000000000001';
end $$;
reset role;
