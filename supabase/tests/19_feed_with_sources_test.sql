-- feed_page_with_sources (migration 20250301001800): the same posts as feed_page, in the same
-- order, and the caller's active follows; anonymous callers get feed_page's error.
\set ON_ERROR_STOP 1
begin;
create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  perform set_config('role', case when who is null then 'anon' else 'authenticated' end, true);
  perform set_config('request.jwt.claims',
    case when who is null then '' else json_build_object('sub', who, 'role', 'authenticated')::text end, true);
end $$;
grant execute on all functions in schema pg_temp to anon, authenticated;

insert into public.posts (id, author_id, content, created_at, updated_at) values
  ('0000001a-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'a1', now() - interval '3 hours', now() - interval '3 hours'),
  ('0000001b-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'b1', now() - interval '2 hours', now() - interval '2 hours'),
  ('0000001a-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001', 'a2', now() - interval '1 hour', now() - interval '1 hour');

do $$
declare answer jsonb; plain text; wrapped text; sources jsonb; expected jsonb;
begin
  perform pg_temp.login('a11ce000-0000-4000-8000-000000000001');
  answer := public.feed_page_with_sources(null, null, 50);
  select string_agg(f.post ->> 'content', ' ' order by n) into plain
    from public.feed_page(null, null, 50) with ordinality as f(post, viewer_has_liked, n);
  select string_agg(p -> 'post' ->> 'content', ' ' order by n) into wrapped
    from jsonb_array_elements(answer -> 'posts') with ordinality as e(p, n);
  if wrapped is distinct from plain then raise exception 'FAIL: posts % differ from feed_page %', wrapped, plain; end if;
  if wrapped not like 'a2 b1 a1%' then raise exception 'FAIL: unexpected order %', wrapped; end if;
  select coalesce(jsonb_agg(f.followee_id order by f.followee_id), '[]') into expected
    from public.follows f where f.follower_id = 'a11ce000-0000-4000-8000-000000000001' and f.deleted_at is null;
  if answer -> 'sources' is distinct from expected then
    raise exception 'FAIL: sources % are not the active follows %', answer -> 'sources', expected;
  end if;
  if jsonb_array_length(answer -> 'sources') = 0 then raise exception 'FAIL: the fixture should follow someone'; end if;
  perform pg_temp.login(null);
  begin
    perform public.feed_page_with_sources();
    raise exception 'FAIL: anonymous feed';
  exception when sqlstate 'PT401' then null;
  end;
end $$;
rollback;
