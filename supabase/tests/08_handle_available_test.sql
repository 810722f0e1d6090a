-- handle_available (migration 20250301000700): taken in any case, private profiles included;
-- the caller's own handle is free to them; anon may ask.
\set ON_ERROR_STOP 1

set role anon;
select set_config('request.jwt.claims', '', false);
do $$ begin
  if public.handle_available('ALICE_WONDER') then raise exception 'FAIL: alice_wonder is taken, in any case'; end if;
  if public.handle_available('carol_creator') then raise exception 'FAIL: a private profile''s handle is taken too'; end if;
  if not public.handle_available('nobody_here') then raise exception 'FAIL: nobody_here is free'; end if;
  -- anon still cannot read carol: the function told nothing else
  if exists (select 1 from public.profiles where handle = 'carol_creator') then raise exception 'FAIL: anon reads carol'; end if;
end $$;
reset role;

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$ begin
  if not public.handle_available('Alice_Wonder') then raise exception 'FAIL: alice''s own handle is free to her'; end if;
  if public.handle_available('bob_builder') then raise exception 'FAIL: bob''s handle is taken for alice'; end if;
end $$;
reset role;
