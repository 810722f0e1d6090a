-- Profile text is bounded in bytes (migration 20250301000600): what the gateway accepts as 280
-- user-visible characters fits, however many code points they take; past the byte bound, no.
\set ON_ERROR_STOP 1

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"d0000000-0000-4000-8000-000000000004","role":"authenticated"}', false);
do $$
declare
  thumbs constant text := U&'\+01F44D\+01F3FD';   -- one character, two code points, 8 bytes
  family constant text := U&'\+01F468\200D\+01F469\200D\+01F467\200D\+01F466';  -- one character, 25 bytes
begin
  -- 280 characters the gateway accepts: 560 code points, refused by the old char_length check
  update public.profiles set bio = repeat(thumbs, 280), display_name = repeat(family, 50)
  where id = 'd0000000-0000-4000-8000-000000000004';
  if (select char_length(bio) from public.profiles where id = 'd0000000-0000-4000-8000-000000000004') <> 560 then
    raise exception 'FAIL: the emoji bio was not stored';
  end if;
  -- past the byte bound (8960 for a bio): refused by the database too
  begin
    update public.profiles set bio = repeat('a' || repeat(U&'\0301', 40), 200)
    where id = 'd0000000-0000-4000-8000-000000000004';
    raise exception 'FAIL: a bio of 16200 bytes was stored';
  exception when check_violation then null;
  end;
end $$;
reset role;
