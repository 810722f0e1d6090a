-- send_count (migration 20250301000900): on every profile and in profile_json; no client writes it.
\set ON_ERROR_STOP 1

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$ begin
  if (select send_count from public.profiles where id = 'a11ce000-0000-4000-8000-000000000001') <> 0 then
    raise exception 'FAIL: send_count starts at 0';
  end if;
  if not (select public.profile_json(p) ? 'send_count' from public.profiles p where id = 'a11ce000-0000-4000-8000-000000000001') then
    raise exception 'FAIL: profile_json lacks send_count';
  end if;
  begin
    update public.profiles set send_count = 99 where id = 'a11ce000-0000-4000-8000-000000000001';
    raise exception 'FAIL: the owner wrote send_count';
  exception when insufficient_privilege then null;
  end;
end $$;
reset role;
