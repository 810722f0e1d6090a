-- social-gateway schema, part 31: seed 000's search read through indexes (issue 51).
--
-- search_profiles_ranked (002500) was an invoker function: RLS applied profiles_read first, and
-- ILIKE is not leakproof, so PostgreSQL could never use the trigram indexes of 000000 under the
-- policy; every search read every profile and lower-cased both its texts (100,000 profiles:
-- 280-440 ms a search). Now:
--
--   1. Indexes on what the search compares: trigrams (pg_trgm, GIN) of handle_lower and of
--      lower(display_name), for queries of 3+ characters; every pair of consecutive characters
--      of either (social_private.search_bigrams, GIN), for 2-character queries, which trigrams
--      cannot serve (seed 001 allows them), and for queries pg_trgm cannot take trigrams from
--      (it splits words at anything but letters and digits: "a_b", "___"); the search order
--      (handle_lower in C collation, id, with display_name) of public profiles, a btree, which a
--      walk reads alone. They replace the two trigram indexes of 000000 (on handle and
--      display_name, not lowered).
--   2. search_profiles_ranked is PL/pgSQL and SECURITY DEFINER: it applies the rule profiles_read
--      gives a public profile itself (not blocked either way; search lists public profiles
--      only, for anyone signed in), and reads each rank its own way:
--      - ranks 0 and 1 (the exact handle, handles starting with query_key) are one range of the
--        order index, cut at the page;
--      - rank 2: a short walk of the order index first (1,000 rows): a common query fills its
--        page there; else the text index names the matches, at most 201 of them: 200 or fewer
--        are all there are, sorted and cut to the page; with more, the walk goes on (below the
--        prefix range, then above it) and stops at the page.
--      The order is bytes (C collation) whatever the database's collation: the embedded store's
--      and the domain's SearchRank order, and on a C.UTF-8 database (scripts/lib/postgres.sh)
--      the order 002500 gave. `enable_seqscan = off` keeps every statement on its index whatever
--      the statistics say (PostgreSQL estimates LIKE '%q%' poorly: 3,206 rows for one that
--      matches none, 8 for one that matches 80,000).
--   3. search_profiles (000200, the rank-less entry point of older gateways) is a definer too,
--      so its ILIKE can use the trigram indexes; its rows and order are unchanged.
--
-- What a caller sees does not change: the same rows in the same order (supabase/tests/25 and
-- 26, and the gateway's search tests on every store).

-- ============ 1. the indexes ============
-- Every pair of consecutive characters of two texts (either may be null), each once.
-- IMMUTABLE (lower() and substr() are), so it can be indexed; executable by everyone (each
-- writer of profiles evaluates it).
create or replace function social_private.search_bigrams(handle_key text, name_key text) returns text[]
language sql immutable parallel safe set search_path = '' as $$
  select coalesce(array_agg(distinct s.g), '{}')
  from (select substr(handle_key, i, 2) as g from generate_series(1, char_length(handle_key) - 1) as i
        union all
        select substr(name_key, i, 2) from generate_series(1, char_length(name_key) - 1) as i) s
$$;

create index if not exists profiles_search_order_idx
  on public.profiles ((handle_lower collate "C"), id) include (display_name) where is_public;
-- The text indexes hold private profiles too (a fifth of the load test's): a partial index
-- needs `is_public` in the query, and with it PostgreSQL may read any partial index whole
-- (the order index) as a bitmap and filter every public profile.
create index if not exists profiles_handle_lower_trgm
  on public.profiles using gin (handle_lower extensions.gin_trgm_ops);
create index if not exists profiles_name_lower_trgm
  on public.profiles using gin (lower(display_name) extensions.gin_trgm_ops);
create index if not exists profiles_search_bigrams
  on public.profiles using gin (social_private.search_bigrams(handle_lower, lower(display_name)));
drop index if exists public.profiles_handle_trgm;
drop index if exists public.profiles_display_trgm;

-- ============ 2. search_profiles_ranked ============
-- Same arguments, rows and order as 002500: public profiles whose handle or display name ILIKE
-- `pattern`, ranked 0 when handle_lower = query_key, 1 when it starts with it, 2 otherwise,
-- then by handle_lower (bytes) and id, strictly after (after_rank, after_handle, after_id).
-- `x ILIKE pattern` is `lower(x) LIKE lower(pattern)` in a UTF-8 database (what PostgreSQL
-- does), and when the pattern is the gateway's (`%` + query_key escaped + `%`), it is
-- strpos(lower(x), lower(query_key)) > 0: `contained`. Another pattern (a client calling the
-- function itself) gets the same answer, through the trigram indexes or the walk.
create or replace function public.search_profiles_ranked(
  pattern text, query_key text, after_rank int default null, after_handle text default null,
  after_id uuid default null, page_size int default 21
) returns setof public.profiles
language plpgsql stable security definer set search_path = '' set enable_seqscan = off set jit = off as $$
declare
  n int := least(greatest(page_size, 0), 101);
  pat text := lower(pattern);
  k text := lower(query_key);
  hi text := query_key || chr(1114111);   -- every handle starting with query_key sorts below it
  ar int := coalesce(after_rank, -1);
  ah text := coalesce(after_handle, '');
  ai uuid := coalesce(after_id, '00000000-0000-0000-0000-000000000000');
  peers uuid[] := social_private.viewer_block_peers();
  contained boolean;
  grams text[];
  candidates uuid[];
  hits uuid[];
  walked int;
  wh text;
  wi uuid;
  got int;
begin
  if n = 0 or pattern is null or query_key is null then
    return;
  end if;
  contained := pat = '%' || replace(replace(replace(k, '\', '\\'), '%', '\%'), '_', '\_') || '%';

  -- Ranks 0 and 1: a range of profiles_search_order_idx (its first row is the exact handle).
  -- The match is checked as it is written only for a pattern that is not the gateway's (a
  -- handle starting with query_key contains it).
  if ar <= 1 then
    if ar = 1 then
      return query select p.* from public.profiles p
        where p.is_public and p.handle_lower collate "C" >= query_key and p.handle_lower collate "C" < hi
          and (p.handle_lower collate "C", p.id) > (ah, ai) and p.handle_lower <> query_key
          and (case when contained then true else p.handle_lower like pat or lower(p.display_name) like pat end)
          and not p.id = any (peers)
        order by p.handle_lower collate "C", p.id limit n;
    else
      return query select p.* from public.profiles p
        where p.is_public and p.handle_lower collate "C" >= query_key and p.handle_lower collate "C" < hi
          and (ar < 0 or p.handle_lower <> query_key or (p.handle_lower collate "C", p.id) > (ah, ai))
          and (case when contained then true else p.handle_lower like pat or lower(p.display_name) like pat end)
          and not p.id = any (peers)
        order by p.handle_lower collate "C", p.id limit n;
    end if;
    get diagnostics got = row_count;
    n := n - got;
    if n = 0 then
      return;
    end if;
    ah := '';
    ai := '00000000-0000-0000-0000-000000000000';
  elsif ar > 2 then
    return;
  end if;

  -- Rank 2, after (ah, ai). First a short walk of the order index: its next 1,000 rank-2 rows.
  -- A common query fills its page there before any text index is asked (a GIN index builds its
  -- bitmap whole: the 80,000 profiles holding "er" of 100,000, 7 ms); a rare one has cost a
  -- read of 1,000 index entries.
  select coalesce(array_agg(s.id order by s.h, s.id) filter (where s.hit), '{}'), count(*),
         (array_agg(s.h order by s.h desc, s.id desc))[1], (array_agg(s.id order by s.h desc, s.id desc))[1]
    into hits, walked, wh, wi
  from (select w.id, w.handle_lower collate "C" as h,
               (case when contained then strpos(w.handle_lower, k) > 0 or strpos(lower(w.display_name), k) > 0
                     else w.handle_lower like pat or lower(w.display_name) like pat end) as hit
        from public.profiles w
        where w.is_public and (w.handle_lower collate "C", w.id) > (ah, ai) and not starts_with(w.handle_lower, query_key)
          and not w.id = any (peers)
        order by w.handle_lower collate "C", w.id limit 1000) s;
  if cardinality(hits) >= n or walked < 1000 then
    return query select p.* from public.profiles p where p.id = any (hits[1:n]) order by p.handle_lower collate "C", p.id;
    return;
  end if;

  -- Rarer than one row in fifty there. The matches, public ones, at most 201, from an index:
  -- the bigrams for 2 characters or a query pg_trgm takes no trigram from, else the trigrams (a
  -- single character, which no index serves and the gateway never sends, is walked). The CTE
  -- is planned for all its rows (with the LIMIT in view, PostgreSQL walked the order index
  -- instead, reading every profile of a rare query) and read only as far as the LIMIT: the
  -- bitmap is built whole, the heap read for 201 matches at most. It does not say `is_public`
  -- (the rows are filtered after), so that no partial index can stand in for the text indexes.
  if contained and char_length(k) < 2 then
    candidates := null;
  elsif contained and (char_length(k) = 2 or k !~ '^[[:alnum:]]+$') then
    grams := social_private.search_bigrams(k, null);
    candidates := array(
      with m as materialized (
        select p.id, p.is_public from public.profiles p
        where social_private.search_bigrams(p.handle_lower, lower(p.display_name)) @> grams
          and (strpos(p.handle_lower, k) > 0 or strpos(lower(p.display_name), k) > 0))
      select m.id from m where m.is_public limit 201);
  else
    candidates := array(
      with m as materialized (
        select p.id, p.is_public from public.profiles p
        where p.handle_lower like pat or lower(p.display_name) like pat)
      select m.id from m where m.is_public limit 201);
  end if;
  if cardinality(candidates) <= 200 then   -- null (no index) walks
    return query select p.* from public.profiles p
      where p.id = any (candidates) and not starts_with(p.handle_lower, query_key)
        and (p.handle_lower collate "C", p.id) > (ah, ai) and not p.id = any (peers)
      order by p.handle_lower collate "C", p.id limit n;
    return;
  end if;

  -- More than 200 matches, few of them where the short walk went: its hits, then the walk on
  -- from its last row.
  return query select p.* from public.profiles p where p.id = any (hits) order by p.handle_lower collate "C", p.id;
  n := n - cardinality(hits);
  ah := wh;
  ai := wi;
  -- A common query: walk the order below the prefix range, then above it, to the page's end.
  -- The match is a CASE, which no index answers, so the walk stays a walk; it reads the index
  -- alone (display_name is in it; the visibility map says which pages need no heap visit), and
  -- the page's rows are read whole after.
  return query select p.* from public.profiles p join (
      select w.id from public.profiles w
      where w.is_public and w.handle_lower collate "C" < query_key and (w.handle_lower collate "C", w.id) > (ah, ai)
        and (case when contained then strpos(w.handle_lower, k) > 0 or strpos(lower(w.display_name), k) > 0
                  else w.handle_lower like pat or lower(w.display_name) like pat end)
        and not w.id = any (peers)
      order by w.handle_lower collate "C", w.id limit n) page on page.id = p.id
    order by p.handle_lower collate "C", p.id;
  get diagnostics got = row_count;
  n := n - got;
  if n = 0 then
    return;
  end if;
  return query select p.* from public.profiles p join (
      select w.id from public.profiles w
      where w.is_public and w.handle_lower collate "C" >= hi and (w.handle_lower collate "C", w.id) > (ah, ai)
        and (case when contained then strpos(w.handle_lower, k) > 0 or strpos(lower(w.display_name), k) > 0
                  else w.handle_lower like pat or lower(w.display_name) like pat end)
        and not w.id = any (peers)
      order by w.handle_lower collate "C", w.id limit n) page on page.id = p.id
    order by p.handle_lower collate "C", p.id;
end $$;

-- Signed-in callers only, as since 002000 (create or replace keeps the grants; said again).
revoke execute on function public.search_profiles_ranked(text, text, int, text, uuid, int) from public, anon;
grant execute on function public.search_profiles_ranked(text, text, int, text, uuid, int) to authenticated;

-- ============ 3. search_profiles ============
-- 000200's rows and order, as a definer with profiles_read's rule for public profiles written
-- out, so that the trigram indexes can serve its ILIKE (lower(x) LIKE lower(pattern)).
create or replace function public.search_profiles(
  pattern text, after_handle text default null, after_id uuid default null, page_size int default 21
) returns setof public.profiles
language sql stable security definer set search_path = '' as $$
  select p.* from public.profiles p
  where p.is_public and not p.id = any (social_private.viewer_block_peers())
    and (p.handle_lower like lower(pattern) or lower(p.display_name) like lower(pattern))
    and (p.handle_lower, p.id) > (coalesce(after_handle, ''), coalesce(after_id, '00000000-0000-0000-0000-000000000000'))
  order by p.handle_lower, p.id
  limit least(greatest(page_size, 0), 101)
$$;
revoke execute on function public.search_profiles(text, text, uuid, int) from public, anon;
grant execute on function public.search_profiles(text, text, uuid, int) to authenticated;
