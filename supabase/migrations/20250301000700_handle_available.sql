-- social-gateway schema, part 8: whether a handle is free (seed 000 `checkHandleAvailable`).
--
-- Clients ask before creating or renaming a profile. Handles are unique case-insensitively
-- across every profile, private ones included, which RLS hides from strangers: so the function
-- runs as its definer and answers true or false only, saying nothing else about the profile that
-- holds the handle (no more than a failed rename would). The caller's own handle counts as free
-- to them. Malformed handles are the gateway's to refuse; here they are simply not taken.
create or replace function public.handle_available(handle text) returns boolean
language sql stable security definer set search_path = '' as $$
  select not exists (
    select 1 from public.profiles p
    where p.handle_lower = lower(handle_available.handle)
      and p.id is distinct from (select auth.uid()))
$$;
revoke execute on function public.handle_available(text) from public;
grant execute on function public.handle_available(text) to anon, authenticated;
