-- followed_by_viewer_following (migration 20250301002400) on a private profile (issue 51): it
-- lists the profile's followers, so a caller who sees only its card (not its owner, not an
-- approved follower) gets none and a count of 0, as from its follower list; an approved follower
-- gets them. follows_read decides, as for every follow row. In one transaction, rolled back.
\set ON_ERROR_STOP 1
begin;

-- bob follows carol (private); dave follows bob but not carol; alice follows bob and carol.
delete from public.follows;
insert into public.follows (follower_id, followee_id) values
  ('b0b00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003'),
  ('d0000000-0000-4000-8000-000000000004', 'b0b00000-0000-4000-8000-000000000002'),
  ('a11ce000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002'),
  ('a11ce000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003');

set role authenticated;
select set_config('request.jwt.claims', '{"sub":"d0000000-0000-4000-8000-000000000004","role":"authenticated"}', false);
do $$
declare got text;
begin
  select string_agg(coalesce(profile ->> 'handle', '-') || '=' || total_count, ',') into got
  from public.followed_by_viewer_following(array['ca201000-0000-4000-8000-000000000003']::uuid[], 10);
  if got is distinct from '-=0' then
    raise exception 'FAIL: dave sees carol''s card only, yet learns her followers: %', got;
  end if;
end $$;
select set_config('request.jwt.claims', '{"sub":"a11ce000-0000-4000-8000-000000000001","role":"authenticated"}', false);
do $$
declare got text;
begin
  select string_agg(coalesce(profile ->> 'handle', '-') || '=' || total_count, ',') into got
  from public.followed_by_viewer_following(array['ca201000-0000-4000-8000-000000000003']::uuid[], 10);
  if got is distinct from 'Bob_Builder=1' then
    raise exception 'FAIL: alice follows carol, so sees that bob does too, got %', got;
  end if;
end $$;
reset role;

rollback;
