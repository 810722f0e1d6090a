-- Seed 000's search through indexes (migration 20250301003100, issue 51): search_profiles_ranked
-- reads the order index for ranks 0 and 1 and a short walk of rank 2, which fills a common
-- query's page; for a rarer query, the trigram indexes for 3+ characters, the bigram index for 2
-- characters and for queries without a trigram of letters and digits; it never scans profiles,
-- and it answers what a plain scan answers, page by page.
-- Index use is read from this transaction's statistics (pg_stat_get_xact_numscans). In one
-- transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
end $$;
create function pg_temp.logout() returns void language plpgsql as $$
begin
  perform set_config('role', 'none', true);
  perform set_config('request.jwt.claims', '', true);
end $$;
-- Every page of the search for `q` (as the gateway asks: its pattern, its lower-case key), `size`
-- rows a page, each page after the previous one's last row: the handles, in order.
create function pg_temp.searched(q text, size int) returns text language plpgsql as $$
declare
  r record; handles text[] := '{}'; ar int; ah text; ai uuid; n int; pages int := 0;
  pattern text := '%' || replace(replace(replace(q, '\', '\\'), '%', '\%'), '_', '\_') || '%';
begin
  loop
    n := 0;
    for r in select s.* from public.search_profiles_ranked(pattern, q, ar, ah, ai, size) s loop
      handles := handles || r.handle;
      n := n + 1;
      ar := case when r.handle_lower = q then 0 when starts_with(r.handle_lower, q) then 1 else 2 end;
      ah := r.handle_lower;
      ai := r.id;
    end loop;
    pages := pages + 1;
    exit when n < size or pages > 400;
  end loop;
  return array_to_string(handles, ',');
end $$;
grant execute on all functions in schema pg_temp to authenticated;
-- What a scan answers (002500's rule written plainly; no blocks here): read as the table owner.
create function pg_temp.scanned(q text) returns text language sql as $$
  select coalesce(string_agg(p.handle, ','
           order by case when p.handle_lower = q then 0 when starts_with(p.handle_lower, q) then 1 else 2 end,
                    p.handle_lower collate "C", p.id), '')
  from public.profiles p
  where p.is_public and (p.handle ilike '%' || replace(replace(replace(q, '\', '\\'), '%', '\%'), '_', '\_') || '%'
                         or p.display_name ilike '%' || replace(replace(replace(q, '\', '\\'), '%', '\%'), '_', '\_') || '%')
$$;
-- Index scans (or sequential scans, for a table) of `rel` in this transaction so far.
create function pg_temp.scans(rel text) returns bigint language sql as $$
  select pg_stat_get_xact_numscans(rel::regclass)
$$;

-- 1,050 profiles w0001... named "Zq <n>" (a common query: the short walk fills its page), 250
-- profiles x001... named "Qq <n>" (more than 200 matches, all after the short walk's 1,000 rows:
-- the walk goes on), and a few names with accents, spaces and wildcards. Fixtures: alice_wonder
-- "Alice", Bob_Builder "100% Bob", carol_creator (private), dave_dyno "Dave_Under".
insert into auth.users (id, email, raw_user_meta_data)
select ('00000026-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'zq' || i || '@example.com',
       json_build_object('handle', 'w' || lpad(i::text, 4, '0'))
from generate_series(1, 1050) as i;
insert into auth.users (id, email, raw_user_meta_data)
select ('00000026-0000-4000-8000-2' || lpad(to_hex(i), 11, '0'))::uuid, 'qq' || i || '@example.com',
       json_build_object('handle', 'x' || lpad(i::text, 3, '0'))
from generate_series(1, 250) as i;
update public.profiles set display_name = 'Zq ' || substr(handle, 2) where handle like 'w____';
update public.profiles set display_name = 'Qq ' || substr(handle, 2) where handle like 'x___';
insert into auth.users (id, email, raw_user_meta_data) values
  ('00000026-0000-4000-8000-100000000001', 'e1@example.com', '{"handle": "elodie_b"}'),
  ('00000026-0000-4000-8000-100000000002', 'e2@example.com', '{"handle": "alice_bob"}'),
  ('00000026-0000-4000-8000-100000000003', 'e3@example.com', '{"handle": "bobcat"}');
update public.profiles set display_name = 'Élodie Bonnet' where handle = 'elodie_b';
update public.profiles set display_name = 'Wzq 7' where handle = 'bobcat';
analyze public.profiles;

do $$
declare
  q text; got text; want text; seq bigint; ord bigint; trgm_h bigint; trgm_n bigint; big bigint;
begin
  if (select count(*) from public.profiles where display_name ilike '%qq%') <= 200 then
    raise exception 'FAIL: the fixture: "qq" must match more than 200 profiles';
  end if;
  -- Every answer is the scan's, in pages of 7 and of 50, and no search scans profiles.
  foreach q in array array['bob', 'bo', '_bo', 'e_b', 'zq', 'zq 1', 'qq', 'q 2', 'w00', 'élo', 'lo', '100%', '0% b', 'nothing', 'zz'] loop
    want := pg_temp.scanned(q);
    seq := pg_temp.scans('public.profiles');
    perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
    got := pg_temp.searched(q, 7);
    if got is distinct from want then raise exception 'FAIL: search % in pages of 7: %, a scan gives %', q, got, want; end if;
    got := pg_temp.searched(q, 50);
    if got is distinct from want then raise exception 'FAIL: search % in pages of 50: %, a scan gives %', q, got, want; end if;
    perform pg_temp.logout();
    if pg_temp.scans('public.profiles') <> seq then
      raise exception 'FAIL: search % scanned profiles % times', q, pg_temp.scans('public.profiles') - seq;
    end if;
  end loop;

  -- 3 characters: both trigram indexes (handle, name) and the order index (ranks 0 and 1).
  perform pg_temp.login('d0000000-0000-4000-8000-000000000004');
  ord := pg_temp.scans('public.profiles_search_order_idx');
  trgm_h := pg_temp.scans('public.profiles_handle_lower_trgm');
  trgm_n := pg_temp.scans('public.profiles_name_lower_trgm');
  big := pg_temp.scans('public.profiles_search_bigrams');
  perform public.search_profiles_ranked('%bob%', 'bob');
  if pg_temp.scans('public.profiles_handle_lower_trgm') = trgm_h or pg_temp.scans('public.profiles_name_lower_trgm') = trgm_n then
    raise exception 'FAIL: "bob" did not read the trigram indexes';
  end if;
  if pg_temp.scans('public.profiles_search_order_idx') = ord then raise exception 'FAIL: "bob" did not read the order index'; end if;
  if pg_temp.scans('public.profiles_search_bigrams') <> big then raise exception 'FAIL: "bob" read the bigram index'; end if;

  -- 2 characters, and 3 with no trigram of letters: the bigram index.
  foreach q in array array['bo', '_bo', '0% '] loop
    big := pg_temp.scans('public.profiles_search_bigrams');
    trgm_h := pg_temp.scans('public.profiles_handle_lower_trgm');
    perform public.search_profiles_ranked('%' || replace(replace(q, '%', '\%'), '_', '\_') || '%', q);
    if pg_temp.scans('public.profiles_search_bigrams') = big then raise exception 'FAIL: % did not read the bigram index', q; end if;
    if pg_temp.scans('public.profiles_handle_lower_trgm') <> trgm_h then raise exception 'FAIL: % read a trigram index', q; end if;
  end loop;

  -- A common query: the short walk fills the page (ranks 0-1, then the walk: two reads of the
  -- order index), no text index asked.
  ord := pg_temp.scans('public.profiles_search_order_idx');
  big := pg_temp.scans('public.profiles_search_bigrams');
  perform public.search_profiles_ranked('%zq%', 'zq');
  if pg_temp.scans('public.profiles_search_order_idx') - ord <> 2 or pg_temp.scans('public.profiles_search_bigrams') <> big then
    raise exception 'FAIL: "zq" read the order index % times (2: ranks 0-1, then the short walk) and the bigram index % times (0)',
      pg_temp.scans('public.profiles_search_order_idx') - ord, pg_temp.scans('public.profiles_search_bigrams') - big;
  end if;
  -- More than 200 matches, none in the short walk's 1,000 rows: counted on the bigram index,
  -- then walked on (below the prefix range and above it).
  ord := pg_temp.scans('public.profiles_search_order_idx');
  perform public.search_profiles_ranked('%qq%', 'qq');
  if pg_temp.scans('public.profiles_search_order_idx') - ord <> 4 or pg_temp.scans('public.profiles_search_bigrams') = big then
    raise exception 'FAIL: "qq" read the order index % times (4: ranks 0-1, the short walk, two walks on)',
      pg_temp.scans('public.profiles_search_order_idx') - ord;
  end if;
  perform pg_temp.logout();
end $$;

rollback;
