-- Private profiles, follow requests and blocks (migration 20250301002300), as each caller sees
-- them: anon, a signed-in stranger, an approved follower, a requester, the owner and a blocked
-- profile. erin is private; hank follows her from before; frank asks; gina is a stranger; at the
-- end erin blocks hank.
\set ON_ERROR_STOP 1

insert into auth.users (id, email) values
  ('e0000000-0000-4000-8000-000000000023', 'erin@example.com'),
  ('f0000000-0000-4000-8000-000000000023', 'frank@example.com'),
  ('90000000-0000-4000-8000-000000000023', 'gina@example.com'),
  ('80000000-0000-4000-8000-000000000023', 'hank@example.com');
update public.profiles set handle = 'erin_private', bio = 'secret bio' where id = 'e0000000-0000-4000-8000-000000000023';
update public.profiles set handle = 'frank_asks' where id = 'f0000000-0000-4000-8000-000000000023';
update public.profiles set handle = 'gina_stranger' where id = '90000000-0000-4000-8000-000000000023';
update public.profiles set handle = 'hank_follows' where id = '80000000-0000-4000-8000-000000000023';
insert into public.follows (follower_id, followee_id) values ('80000000-0000-4000-8000-000000000023', 'e0000000-0000-4000-8000-000000000023');
update public.profiles set is_public = false where id = 'e0000000-0000-4000-8000-000000000023';

create function pg_temp.login(who uuid) returns void language plpgsql as $$
begin
  if who is null then
    perform set_config('role', 'anon', true);
    perform set_config('request.jwt.claims', '', true);
  else
    perform set_config('role', 'authenticated', true);
    perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
  end if;
end $$;

do $$
declare
  erin constant uuid := 'e0000000-0000-4000-8000-000000000023';
  frank constant uuid := 'f0000000-0000-4000-8000-000000000023';
  gina constant uuid := '90000000-0000-4000-8000-000000000023';
  hank constant uuid := '80000000-0000-4000-8000-000000000023';
  cards jsonb;
begin
  -- anon: nothing of erin, and no cards
  perform pg_temp.login(null);
  if exists (select 1 from public.profiles where id = erin) then raise exception 'FAIL: anon reads private erin'; end if;
  begin
    perform public.profile_cards(array[erin]);
    raise exception 'FAIL: anon read a card';
  exception when insufficient_privilege then null;
  end;
  reset role;

  -- gina, a stranger: no row, but the card, without the bio
  perform pg_temp.login(gina);
  if exists (select 1 from public.profiles where id = erin) then raise exception 'FAIL: a stranger reads private erin'; end if;
  cards := public.profile_cards(array[erin]);
  if jsonb_array_length(cards) <> 1 or cards -> 0 ->> 'handle' <> 'erin_private' or cards -> 0 ->> 'bio' is not null
     or (cards -> 0 ->> 'card') <> 'true' then
    raise exception 'FAIL: gina''s card of erin: %', cards;
  end if;
  if exists (select 1 from public.follows where followee_id = erin) then raise exception 'FAIL: a stranger reads erin''s follows'; end if;
  reset role;

  -- hank, an approved follower: all of erin, and no card (he sees the row)
  perform pg_temp.login(hank);
  if (select bio from public.profiles where id = erin) is distinct from 'secret bio' then raise exception 'FAIL: a follower cannot read erin'; end if;
  if jsonb_array_length(public.profile_cards(array[erin])) <> 0 then raise exception 'FAIL: a follower got a card'; end if;
  reset role;

  -- frank asks: a pending request he and erin see, gina does not
  perform pg_temp.login(frank);
  if (public.follow_profile(erin) ->> 'request_status') <> 'pending' then raise exception 'FAIL: frank did not ask'; end if;
  if (select count(*) from public.follow_requests) <> 1 then raise exception 'FAIL: frank does not see his request'; end if;
  begin
    insert into public.follow_requests (requester_id, target_id) values (frank, gina);
    raise exception 'FAIL: frank wrote a request directly';
  exception when insufficient_privilege then null;
  end;
  begin
    perform public.answer_follow_request(frank, true);
    raise exception 'FAIL: frank answered a request made to someone else';
  exception when sqlstate 'PT404' then null;
  end;
  reset role;
  perform pg_temp.login(gina);
  if exists (select 1 from public.follow_requests) then raise exception 'FAIL: a stranger reads others'' requests'; end if;
  if exists (select 1 from public.pending_follow_requests(jsonb_build_array(jsonb_build_object('follower_id', frank, 'followee_id', erin)))) then
    raise exception 'FAIL: a stranger learns of a request through pending_follow_requests';
  end if;
  reset role;

  -- erin lists and approves: frank follows, with exact counts, and sees her bio
  perform pg_temp.login(erin);
  if (public.follow_request_page() ->> 'total')::int <> 1 then raise exception 'FAIL: erin''s requests: %', public.follow_request_page(); end if;
  perform public.answer_follow_request(frank, true);
  reset role;
  if (select follower_count from public.profiles where id = erin) <> 2 then raise exception 'FAIL: erin''s follower count after approval'; end if;
  if exists (select 1 from public.follow_requests where target_id = erin) then raise exception 'FAIL: the approved request stayed'; end if;
  perform pg_temp.login(frank);
  if (select bio from public.profiles where id = erin) is distinct from 'secret bio' then raise exception 'FAIL: approved frank cannot read erin'; end if;
  reset role;

  -- gina asks, erin declines: no follow, and gina cannot ask again yet (PT429, retry_after)
  perform pg_temp.login(gina);
  perform public.follow_profile(erin);
  reset role;
  perform pg_temp.login(erin);
  perform public.answer_follow_request(gina, false);
  reset role;
  perform pg_temp.login(gina);
  begin
    perform public.follow_profile(erin);
    raise exception 'FAIL: gina asked again right after the decline';
  exception when sqlstate 'PT429' then null;
  end;
  reset role;

  -- erin blocks hank: his follow goes (counts exact), neither sees the other, not even a card,
  -- and he cannot follow or ask; only erin sees the block
  perform pg_temp.login(erin);
  if not (public.block_profile(hank) ->> 'changed')::boolean then raise exception 'FAIL: the block changed nothing'; end if;
  if exists (select 1 from public.profiles where id = hank) then raise exception 'FAIL: erin reads blocked hank'; end if;
  if (select count(*) from public.blocks) <> 1 then raise exception 'FAIL: erin does not see her block'; end if;
  reset role;
  if exists (select 1 from public.follows where follower_id = hank and followee_id = erin and deleted_at is null) then
    raise exception 'FAIL: the block left hank''s follow';
  end if;
  if (select follower_count from public.profiles where id = erin) <> 1 then raise exception 'FAIL: erin''s count after the block'; end if;
  perform pg_temp.login(hank);
  if exists (select 1 from public.profiles where id = erin) then raise exception 'FAIL: blocked hank reads erin'; end if;
  if jsonb_array_length(public.profile_cards(array[erin])) <> 0 then raise exception 'FAIL: blocked hank got erin''s card'; end if;
  if exists (select 1 from public.blocks) then raise exception 'FAIL: hank sees that he is blocked'; end if;
  begin
    perform public.follow_profile(erin);
    raise exception 'FAIL: blocked hank followed erin';
  exception when sqlstate 'PT404' then null;
  end;
  reset role;
end $$;

-- After the block, posts and comments (the PL/pgSQL definer functions of 002800 apply the rule
-- themselves): neither sees the other's comments on a third profile's post, nor the comments of
-- the other's posts, and a follows row left across the block (written here as the owner, which
-- the functions never leave) does not put erin's posts or erin in hank's feed, nor show as a
-- follow state.
do $$
declare
  erin constant uuid := 'e0000000-0000-4000-8000-000000000023';
  gina constant uuid := '90000000-0000-4000-8000-000000000023';
  hank constant uuid := '80000000-0000-4000-8000-000000000023';
  gina_post uuid; erin_post uuid; got text; feed jsonb;
begin
  insert into public.posts (author_id, content) values (gina, 'gina post') returning id into gina_post;
  insert into public.posts (author_id, content) values (erin, 'erin post') returning id into erin_post;
  insert into public.comments (post_id, author_id, content) values
    (gina_post, hank, 'hank on gina'), (gina_post, erin, 'erin on gina'), (erin_post, erin, 'erin on erin');
  insert into public.follows (follower_id, followee_id) values (hank, gina), (erin, gina), (hank, erin)
  on conflict (follower_id, followee_id) do update set deleted_at = null;

  perform pg_temp.login(erin);
  select string_agg(c.comment ->> 'content', ',' order by c.comment ->> 'content') into got
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', gina_post, 'limit', 10))) c;
  if got is distinct from 'erin on gina' then raise exception 'FAIL: erin sees the comments on gina''s post as %', got; end if;

  perform pg_temp.login(hank);
  select string_agg(c.comment ->> 'content', ',' order by c.comment ->> 'content') into got
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', gina_post, 'limit', 10))) c;
  if got is distinct from 'hank on gina' then raise exception 'FAIL: hank sees the comments on gina''s post as %', got; end if;
  select string_agg(coalesce(c.comment ->> 'content', '-') || '/' || c.total_count, ',') into got
  from public.comment_pages(jsonb_build_array(jsonb_build_object('post', erin_post, 'limit', 10))) c;
  if got is distinct from '-/0' then raise exception 'FAIL: blocked hank reads erin''s post''s comments: %', got; end if;
  feed := public.feed_page_with_sources(null, null, 50);
  if feed -> 'sources' <> jsonb_build_array(gina) then raise exception 'FAIL: hank''s feed sources %', feed -> 'sources'; end if;
  select string_agg(p -> 'post' ->> 'content', ',') into got from jsonb_array_elements(feed -> 'posts') p;
  if got is distinct from 'gina post' then raise exception 'FAIL: hank''s feed across the block: %', got; end if;
  select string_agg(s.followee_id::text, ',') into got
  from public.active_follows(jsonb_build_array(jsonb_build_object('follower_id', hank, 'followee_id', erin),
                                               jsonb_build_object('follower_id', hank, 'followee_id', gina))) s;
  if got is distinct from gina::text then raise exception 'FAIL: hank''s follow states across the block: %', got; end if;
  reset role;
  update public.follows set deleted_at = now() where follower_id = hank and followee_id = erin;
end $$;
