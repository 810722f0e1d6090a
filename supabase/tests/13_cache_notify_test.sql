-- Cache notifications (migration 20250301001200): the tags social_private.cache_tags gives for
-- each kind of write, and the triggers that send them attached and enabled on the three tables.
-- That they really send (payloads, folding, nothing on rollback) is checked by
-- scripts/test-supabase-sql, which LISTENs from psql.
\set ON_ERROR_STOP 1

create function pg_temp.expect(label text, got text[], want text[]) returns void
language plpgsql as $$
begin
  if got is null
     or array(select t from unnest(got) t order by t collate "C")
        is distinct from array(select t from unnest(want) t order by t collate "C") then
    raise exception 'FAIL: % gave %, expected %', label, got, want;
  end if;
end $$;

do $$
declare
  a constant text := 'a11ce000-0000-4000-8000-000000000001';
  b constant text := 'b0b00000-0000-4000-8000-000000000002';
  d constant text := 'd0000000-0000-4000-8000-000000000004';
  p jsonb := (select to_jsonb(x) from public.profiles x where x.id = a::uuid);
  pp jsonb := (select to_jsonb(x) from public.profile_private x where x.id = a::uuid);
  f jsonb := jsonb_build_object('id', gen_random_uuid(), 'follower_id', a, 'followee_id', d,
                                'created_at', now(), 'updated_at', now(), 'deleted_at', null);
  follow_tags constant text[] := array['Profile:' || a, 'Profile:' || d, 'followers:' || d, 'following:' || a];
  col text;
begin
  if p is null or pp is null then raise exception 'FAIL: the fixtures lack alice'; end if;

  -- follows: the four tags of the pair, whatever the write
  perform pg_temp.expect('follows insert', social_private.cache_tags('follows', null, f), follow_tags);
  perform pg_temp.expect('follows soft delete',
    social_private.cache_tags('follows', f, f || jsonb_build_object('deleted_at', now(), 'updated_at', now())), follow_tags);
  perform pg_temp.expect('follows restore',
    social_private.cache_tags('follows', f || jsonb_build_object('deleted_at', now()), f), follow_tags);
  perform pg_temp.expect('follows delete', social_private.cache_tags('follows', f, null), follow_tags);
  perform pg_temp.expect('follows update to another pair',
    social_private.cache_tags('follows', f, f || jsonb_build_object('follower_id', b)),
    follow_tags || array['Profile:' || b, 'following:' || b]);
  perform pg_temp.expect('follows upper-case ids',
    social_private.cache_tags('follows', null, f || jsonb_build_object('follower_id', upper(a), 'followee_id', upper(d))),
    follow_tags);

  -- profiles: a profile appearing or going touches every search and every list
  perform pg_temp.expect('profiles insert', social_private.cache_tags('profiles', null, p),
    array['Profile:' || a, 'search', 'follow-lists']);
  perform pg_temp.expect('profiles delete', social_private.cache_tags('profiles', p, null),
    array['Profile:' || a, 'search', 'follow-lists']);
  -- counters (the follows trigger's updates, send_count) and updated_at: the profile only
  perform pg_temp.expect('profiles counter-only update',
    social_private.cache_tags('profiles', p, p || jsonb_build_object(
      'follower_count', (p ->> 'follower_count')::int + 1, 'following_count', (p ->> 'following_count')::int + 1)),
    array['Profile:' || a]);
  perform pg_temp.expect('profiles send_count update',
    social_private.cache_tags('profiles', p, p || jsonb_build_object('send_count', (p ->> 'send_count')::int + 5)),
    array['Profile:' || a]);
  perform pg_temp.expect('profiles updated_at only',
    social_private.cache_tags('profiles', p, p || jsonb_build_object('updated_at', now() + interval '1 second')),
    array['Profile:' || a]);
  perform pg_temp.expect('profiles no-op update', social_private.cache_tags('profiles', p, p), array['Profile:' || a]);
  -- any other column search matches or returns: search too
  foreach col in array array['handle', 'display_name', 'bio', 'photo_url', 'home_gym', 'climbing_since',
                             'favorite_style', 'created_at'] loop
    perform pg_temp.expect('profiles ' || col || ' update',
      social_private.cache_tags('profiles', p, p || jsonb_build_object(col, 'changed ' || coalesce(p ->> col, ''))),
      array['Profile:' || a, 'search']);
  end loop;
  perform pg_temp.expect('profiles display_name cleared',
    social_private.cache_tags('profiles', p || '{"display_name":"Alice"}', p || '{"display_name":null}'),
    array['Profile:' || a, 'search']);
  perform pg_temp.expect('profiles display_name and counter update',
    social_private.cache_tags('profiles', p, p || jsonb_build_object(
      'display_name', 'Al', 'follower_count', (p ->> 'follower_count')::int + 1)),
    array['Profile:' || a, 'search']);
  -- visibility: every follow list as well
  perform pg_temp.expect('profiles visibility change',
    social_private.cache_tags('profiles', p, p || jsonb_build_object('is_public', not (p ->> 'is_public')::boolean)),
    array['Profile:' || a, 'search', 'follow-lists']);

  -- profile_private: the owner's profile only
  perform pg_temp.expect('profile_private insert', social_private.cache_tags('profile_private', null, pp), array['Profile:' || a]);
  perform pg_temp.expect('profile_private update',
    social_private.cache_tags('profile_private', pp, pp || '{"home_zip":"80302"}'), array['Profile:' || a]);
  perform pg_temp.expect('profile_private delete', social_private.cache_tags('profile_private', pp, null), array['Profile:' || a]);

  -- what it cannot tag it refuses, rather than send a wrong payload
  begin
    perform social_private.cache_tags('posts', null, p);
    raise exception 'FAIL: tags for a table the cache does not read';
  exception when raise_exception then
    if sqlerrm like 'FAIL:%' then raise; end if;
  end;
  begin
    perform social_private.cache_tags('follows', null, '{"follower_id":"a11ce000-0000-4000-8000-000000000001"}');
    raise exception 'FAIL: tags for a follows row without its followee';
  exception when raise_exception then
    if sqlerrm like 'FAIL:%' then raise; end if;
  end;
end $$;

-- The triggers: AFTER INSERT OR UPDATE OR DELETE, FOR EACH ROW, enabled, calling cache_notify.
do $$
declare missing text;
begin
  select string_agg(t.tab, ', ') into missing
  from unnest(array['public.follows', 'public.profiles', 'public.profile_private']) as t(tab)
  where not exists (
    select 1 from pg_trigger g
    where g.tgrelid = t.tab::regclass and not g.tgisinternal
      and g.tgfoid = 'social_private.cache_notify()'::regprocedure
      and g.tgenabled in ('O', 'A')
      -- ROW (1), AFTER (no BEFORE 2, no INSTEAD 64), INSERT (4), DELETE (8), UPDATE (16), no TRUNCATE (32)
      and g.tgtype = 1 | 4 | 8 | 16
      and g.tgattr = '');  -- not UPDATE OF some columns only
  if missing is not null then
    raise exception 'FAIL: no enabled AFTER INSERT OR UPDATE OR DELETE row trigger calling cache_notify on %', missing;
  end if;
end $$;

-- Clients cannot call the functions (cache_notify, a trigger function, is not callable anyway).
do $$ begin
  if has_function_privilege('authenticated', 'social_private.cache_tags(text, jsonb, jsonb)', 'execute')
     or has_function_privilege('anon', 'social_private.cache_tags(text, jsonb, jsonb)', 'execute')
     or has_function_privilege('authenticated', 'social_private.cache_notify()', 'execute') then
    raise exception 'FAIL: clients may execute the cache notification functions';
  end if;
end $$;

-- Writes as the roles that make them still succeed through the definer trigger function:
-- a user (authenticated) and the service role, neither of whom may run cache_tags itself.
begin;
set local role authenticated;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', true);
update public.profiles set bio = 'cache notify test' where id = 'a11ce000-0000-4000-8000-000000000001';
update public.profile_private set home_zip = '80302' where id = 'a11ce000-0000-4000-8000-000000000001';
select public.toggle_follow('d0000000-0000-4000-8000-000000000004') ->> 'is_following';
reset role;
set local role service_role;
update public.profile_private set premium_expires_at = now(), premium_product_id = 'p', premium_original_transaction_id = 't'
  where id = 'b0b00000-0000-4000-8000-000000000002';
rollback;
