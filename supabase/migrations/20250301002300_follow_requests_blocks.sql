-- social-gateway schema, part 24: private profiles their approved followers see, follow
-- requests, and blocks (issue 40).
--
-- Until now a private profile was visible to its owner alone, so nobody could ever follow it and
-- its followers saw nothing of it. The rule is now SocialDomain's ProfileAccess:
--   public profile                      -> everyone sees it
--   private, the caller's own           -> whole
--   private, the caller follows it      -> whole (an approved request, or a follow from before
--                                          it turned private)
--   private, any other signed-in caller -> its card, through profile_cards() only
--   private, anonymous                  -> nothing
--   any, blocked either way             -> nothing (not even a card)
-- Every policy that said `(x.is_public or x.id = auth.uid())` now says
-- `public.viewer_sees(x.id, x.is_public)`; the card never comes from a table read, so no
-- stranger reads a bio through PostgREST.
--
-- A block removes the follows and requests between the two profiles both ways (counters with
-- them) and hides each from the other everywhere; neither can follow or ask. It is private:
-- the blocked profile just finds the blocker NOT_FOUND.
--
-- A follow of a private profile the caller does not follow makes a row in follow_requests
-- instead; unfollow cancels it; the owner approves (the follow is made, counters with it) or
-- declines (the row stays 'declined' with its time: no new request for 7 days, PT429 with
-- retry_after, SocialDomain's FollowRequestRules). Turning public approves every pending request.

-- ============ 0. blocks ============
create table public.blocks (
  blocker_id uuid not null references public.profiles (id) on delete cascade,
  blocked_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default clock_timestamp(),
  primary key (blocker_id, blocked_id),
  constraint blocks_not_self check (blocker_id <> blocked_id)
);
-- the other way round, for "does either block the other", and the blocker's list, newest first
create index blocks_blocked_idx on public.blocks (blocked_id, blocker_id);
create index blocks_blocker_page_idx on public.blocks (blocker_id, created_at desc, blocked_id desc);
alter table public.blocks enable row level security;
-- Read: the blocker sees their own rows (the blocked never learns). Writes only through the
-- functions below.
grant select on public.blocks to authenticated;
grant all on public.blocks to service_role;
create policy blocks_read_own on public.blocks for select to authenticated
  using (blocker_id = (select auth.uid()));

-- ============ 1. the rule, for the policies ============
-- SECURITY DEFINER so that a profiles policy can read follows and blocks without follows_read
-- (which reads profiles) recursing. In public because anon evaluates the policies too and has
-- no usage on social_private; it tells the caller only what they may see, which every read tells
-- them anyway.
create or replace function public.viewer_sees(target uuid, target_public boolean) returns boolean
language sql stable security definer set search_path = '' as $$
  select case
    when (select auth.uid()) is null then coalesce(target_public, false)
    when target = (select auth.uid()) then true
    when exists (select 1 from public.blocks b
                 where (b.blocker_id = (select auth.uid()) and b.blocked_id = target)
                    or (b.blocker_id = target and b.blocked_id = (select auth.uid()))) then false
    else coalesce(target_public, false) or exists (
      select 1 from public.follows f
      where f.follower_id = (select auth.uid()) and f.followee_id = target and f.deleted_at is null)
  end
$$;
revoke execute on function public.viewer_sees(uuid, boolean) from public;
grant execute on function public.viewer_sees(uuid, boolean) to anon, authenticated;

-- Whether either of two profiles blocks the other (for the definer functions).
create or replace function social_private.blocked_either(a uuid, b uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.blocks k
                 where (k.blocker_id = a and k.blocked_id = b) or (k.blocker_id = b and k.blocked_id = a))
$$;
revoke execute on function social_private.blocked_either(uuid, uuid) from public, anon, authenticated;

alter policy profiles_read on public.profiles
  using (public.viewer_sees(id, is_public));
alter policy follows_read on public.follows
  using (
    deleted_at is null
    and exists (select 1 from public.profiles p
                where p.id = follows.follower_id
                  and public.viewer_sees(p.id, p.is_public))
    and exists (select 1 from public.profiles p
                where p.id = follows.followee_id
                  and public.viewer_sees(p.id, p.is_public)));
alter policy posts_read on public.posts
  using (exists (select 1 from public.profiles a
                 where a.id = posts.author_id
                   and public.viewer_sees(a.id, a.is_public)));
alter policy post_likes_read on public.post_likes
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = post_likes.post_id
                   and public.viewer_sees(a.id, a.is_public))
         and exists (select 1 from public.profiles w
                     where w.id = post_likes.profile_id
                       and public.viewer_sees(w.id, w.is_public)));
alter policy post_likes_insert_own on public.post_likes
  with check (
    profile_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = post_likes.post_id
                  and public.viewer_sees(a.id, a.is_public)));
alter policy comments_read on public.comments
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = comments.post_id
                   and public.viewer_sees(a.id, a.is_public))
         and exists (select 1 from public.profiles w
                     where w.id = comments.author_id
                       and public.viewer_sees(w.id, w.is_public)));
alter policy comments_insert_own on public.comments
  with check (
    author_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = comments.post_id
                  and public.viewer_sees(a.id, a.is_public)));
alter policy stories_read on public.stories
  using (
    expires_at > now()
    and exists (select 1 from public.profiles a
                where a.id = stories.author_id
                  and public.viewer_sees(a.id, a.is_public)));

-- ============ 2. cards ============
-- The card of each private profile among `ids`/`handles` that the signed-in caller neither owns
-- nor follows, in the columns of a profiles read (ProfileRow) with what is behind the card null.
-- Definer: RLS hides these rows from the caller, on purpose.
create or replace function public.profile_cards(ids uuid[] default '{}', handles text[] default '{}')
returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', null, 'photo_url', p.photo_url,
      'home_gym', null, 'climbing_since', null, 'favorite_style', null, 'is_public', p.is_public,
      'follower_count', p.follower_count, 'following_count', p.following_count, 'created_at', p.created_at,
      'updated_at', p.updated_at, 'send_count', p.send_count, 'post_count', p.post_count, 'card', true)), '[]'::jsonb)
  from public.profiles p
  where (select auth.uid()) is not null
    and (p.id = any(coalesce(ids, '{}')) or p.handle_lower = any(coalesce(handles, '{}')))
    and not public.viewer_sees(p.id, p.is_public)
    and not social_private.blocked_either(p.id, (select auth.uid()))
$$;
revoke execute on function public.profile_cards(uuid[], text[]) from public;
grant execute on function public.profile_cards(uuid[], text[]) to authenticated;

-- ============ 3. follow_requests ============
create table public.follow_requests (
  requester_id uuid not null references public.profiles (id) on delete cascade,
  target_id    uuid not null references public.profiles (id) on delete cascade,
  status       text not null default 'pending' check (status in ('pending', 'declined')),
  created_at   timestamptz not null default clock_timestamp(),
  decided_at   timestamptz,
  primary key (requester_id, target_id),
  constraint follow_requests_not_self check (requester_id <> target_id)
);
-- the owner's list, newest first
create index follow_requests_target_pending_idx
  on public.follow_requests (target_id, created_at desc, requester_id desc) where status = 'pending';

alter table public.follow_requests enable row level security;
-- Read: the requester and the owner see their own rows. Writes only through the functions below.
grant select on public.follow_requests to authenticated;
grant all on public.follow_requests to service_role;
create policy follow_requests_read_own on public.follow_requests for select to authenticated
  using (requester_id = (select auth.uid()) or target_id = (select auth.uid()));

-- Every change tells the replicas: the owner's list and both profiles (a requester's cached card
-- carries its request status).
create or replace function social_private.follow_requests_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record := case when tg_op = 'DELETE' then old else new end;
begin
  perform pg_notify('social_gateway_cache',
    '{"v":1,"table":"follow_requests","tags":' || array_to_json(array[
      'Profile:' || r.requester_id, 'Profile:' || r.target_id, 'followRequests:' || r.target_id])::text || '}');
  return null;
end $$;
revoke execute on function social_private.follow_requests_notify() from public;
create trigger follow_requests_cache_notify after insert or update or delete on public.follow_requests
  for each row execute function social_private.follow_requests_notify();

-- The request side of a follow mutation, for a private `target` that `me` does not follow:
-- 'follow' asks (or keeps a pending request), 'unfollow' cancels, 'toggle' does whichever applies.
-- Returns the outcome in follow_outcome's shape plus request_status and changed.
create or replace function social_private.change_follow_request(action text, me uuid, target uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  req public.follow_requests;
  pending boolean;
  ask boolean;
  changed boolean := false;
  wait int;
begin
  select * into req from public.follow_requests r where r.requester_id = me and r.target_id = target for update;
  pending := found and req.status = 'pending';
  ask := action = 'follow' or (action = 'toggle' and not pending);
  if not ask then
    if pending then
      delete from public.follow_requests r where r.requester_id = me and r.target_id = target;
      changed := true;
    end if;
  elsif not pending then
    if found and req.decided_at is not null then
      wait := ceil(extract(epoch from req.decided_at + interval '7 days' - clock_timestamp()))::int;
      if wait > 0 then
        raise exception 'follow_request_declined' using errcode = 'PT429', hint = 'follow_request_declined',
          detail = 'retry_after=' || wait;
      end if;
    end if;
    insert into public.follow_requests as r (requester_id, target_id) values (me, target)
    on conflict (requester_id, target_id) do update
      set status = 'pending', created_at = clock_timestamp(), decided_at = null;
    changed := true;
  end if;
  return jsonb_build_object(
    'is_following', false,
    'follower', social_private.profile_as_seen(me),
    'followee', social_private.profile_as_seen(target),
    'changed', changed,
    'request_status', case when ask then 'pending' else 'none' end);
end $$;
revoke execute on function social_private.change_follow_request(text, uuid, uuid) from public, anon, authenticated;

-- Whether the call is about a request: `target` exists, is private, and `me` does not follow it.
create or replace function social_private.is_request_target(me uuid, target uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.profiles p where p.id = target and not p.is_public and p.id <> me)
     and not social_private.blocked_either(me, target)
     and not exists (select 1 from public.follows f
                     where f.follower_id = me and f.followee_id = target and f.deleted_at is null)
$$;
revoke execute on function social_private.is_request_target(uuid, uuid) from public, anon, authenticated;

-- The three follow mutations, as in 002100/000500, with the request path first.
create or replace function public.follow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.blocked_either(me, target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  if social_private.is_following(me, target) then
    return public.follow_outcome(me, target);  -- already following (a private profile too)
  end if;
  if social_private.is_request_target(me, target) then
    return social_private.change_follow_request('follow', me, target);
  end if;
  perform public.follow_check(target);
  insert into public.follows as f (follower_id, followee_id) values (me, target)
  on conflict (follower_id, followee_id) do update set deleted_at = null
    where f.deleted_at is not null;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.unfollow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.blocked_either(me, target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  if social_private.is_following(me, target) then
    update public.follows set deleted_at = now()
    where follower_id = me and followee_id = target and deleted_at is null;
  elsif social_private.is_request_target(me, target) then
    return social_private.change_follow_request('unfollow', me, target);
  else
    perform public.follow_check(target);
  end if;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.toggle_follow(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.blocked_either(me, target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  if social_private.is_following(me, target) then
    update public.follows set deleted_at = now()
    where follower_id = me and followee_id = target and deleted_at is null;
  elsif social_private.is_request_target(me, target) then
    return social_private.change_follow_request('toggle', me, target);
  else
    perform public.follow_check(target);
    insert into public.follows as f (follower_id, followee_id) values (me, target)
    on conflict (follower_id, followee_id) do update set deleted_at = null
      where f.deleted_at is not null;
  end if;
  return public.follow_outcome(me, target);
end $$;

-- Whether the caller sees `p` whole: profiles_read, spelled out for the definer functions, which
-- RLS does not filter.
create or replace function social_private.sees(p public.profiles) returns boolean
language sql stable set search_path = '' as $$
  select public.viewer_sees(p.id, p.is_public)
$$;
revoke execute on function social_private.sees(public.profiles) from public;

-- The profile `id` as the caller sees it: whole, its card, or null.
create or replace function social_private.profile_as_seen(id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select coalesce((select public.profile_json(p) from public.profiles p where p.id = profile_as_seen.id and social_private.sees(p)),
                  public.profile_cards(array[profile_as_seen.id]) -> 0)
$$;
revoke execute on function social_private.profile_as_seen(uuid) from public;

-- follow_outcome as in 000400, but a private followee the caller does not follow is its card.
create or replace function public.follow_outcome(me uuid, target uuid) returns jsonb
language sql stable security invoker set search_path = '' as $$
  select jsonb_build_object(
    'is_following', exists (select 1 from public.follows f
                            where f.follower_id = me and f.followee_id = target and f.deleted_at is null),
    'follower', social_private.profile_as_seen(me),
    'followee', social_private.profile_as_seen(target))
$$;
revoke execute on function public.follow_outcome(uuid, uuid) from public, anon, authenticated;

-- ============ 4. the owner's side ============
-- Which of `pairs` ([{follower_id, followee_id}]) are pending requests the caller is part of.
create or replace function public.pending_follow_requests(pairs jsonb) returns table (requester_id uuid, target_id uuid)
language sql stable security invoker set search_path = '' as $$
  select r.requester_id, r.target_id
  from jsonb_to_recordset(pairs) as q(follower_id uuid, followee_id uuid)
  join public.follow_requests r on r.requester_id = q.follower_id and r.target_id = q.followee_id
  where r.status = 'pending'
$$;

-- The caller's pending requests, newest first, after (after_us, after_id); page_size rows.
create or replace function public.follow_request_page(after_us bigint default null, after_id uuid default null,
                                                      page_size int default 21)
returns jsonb
-- definer: it reads the caller's own rows only (target_id = auth.uid()), and shows each requester
-- through social_private.profile_as_seen, which applies the caller's visibility itself
language plpgsql stable security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=manage_follow_requests';
  end if;
  return jsonb_build_object(
    'total', (select count(*) from public.follow_requests r where r.target_id = me and r.status = 'pending'),
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object(
               'created_us', (extract(epoch from q.created_at) * 1000000)::bigint,
               'requester', social_private.profile_as_seen(q.requester_id))
             order by q.created_at desc, q.requester_id desc)
      from (select r.requester_id, r.created_at from public.follow_requests r
            where r.target_id = me and r.status = 'pending'
              and (after_us is null
                   or (r.created_at, r.requester_id) < (timestamptz 'epoch' + after_us * interval '1 microsecond', after_id))
            order by r.created_at desc, r.requester_id desc
            limit page_size) q), '[]'::jsonb));
end $$;

-- Approve or decline the pending request `requester` made to the caller.
create or replace function public.answer_follow_request(requester uuid, approve boolean) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=manage_follow_requests';
  end if;
  perform social_private.lock_follow_pair(requester, me);
  if not exists (select 1 from public.follow_requests r
                 where r.requester_id = requester and r.target_id = me and r.status = 'pending') then
    raise exception 'follow_request_not_found' using errcode = 'PT404', hint = 'follow_request_not_found';
  end if;
  if approve then
    insert into public.follows as f (follower_id, followee_id) values (requester, me)
    on conflict (follower_id, followee_id) do update set deleted_at = null where f.deleted_at is not null;
    delete from public.follow_requests r where r.requester_id = requester and r.target_id = me;
  else
    update public.follow_requests r set status = 'declined', decided_at = clock_timestamp()
    where r.requester_id = requester and r.target_id = me;
  end if;
  return jsonb_build_object(
    'approved', approve,
    'requester', social_private.profile_as_seen(requester),
    'owner', (select public.profile_json(p) from public.profiles p where p.id = me));
end $$;

-- A SECURITY DEFINER function runs profile_json/profile_cards as its owner: auth.uid() is still
-- the caller's (the claims are the session's), so cards are the caller's cards.
revoke execute on function
  public.pending_follow_requests(jsonb), public.follow_request_page(bigint, uuid, int),
  public.answer_follow_request(uuid, boolean)
  from public, anon;
grant execute on function
  public.pending_follow_requests(jsonb), public.follow_request_page(bigint, uuid, int),
  public.answer_follow_request(uuid, boolean)
  to authenticated;

-- ============ 5. turning public approves every pending request ============
create or replace function social_private.approve_pending_on_public() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.follows as f (follower_id, followee_id)
  select r.requester_id, r.target_id from public.follow_requests r
  where r.target_id = new.id and r.status = 'pending'
  on conflict (follower_id, followee_id) do update set deleted_at = null where f.deleted_at is not null;
  delete from public.follow_requests r where r.target_id = new.id and r.status = 'pending';
  return null;
end $$;
revoke execute on function social_private.approve_pending_on_public() from public;
create trigger profiles_public_approves_requests after update of is_public on public.profiles
  for each row when (old.is_public is distinct from new.is_public and new.is_public)
  execute function social_private.approve_pending_on_public();

-- ============ 6. block and unblock ============
-- Blocks `target` for the caller: the follows both ways are undone (counters with them) and the
-- requests both ways deleted, in this transaction. Blocking twice changes nothing.
create or replace function public.block_profile(target uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
  changed int;
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=block_users';
  end if;
  if me = target then
    raise exception 'cannot_block_self' using errcode = 'PT400', hint = 'cannot_block_self';
  end if;
  if not exists (select 1 from public.profiles p where p.id = target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  perform social_private.lock_follow_pair(me, target);
  insert into public.blocks (blocker_id, blocked_id) values (me, target) on conflict do nothing;
  get diagnostics changed = row_count;
  if changed > 0 then
    update public.follows f set deleted_at = now()
    where f.deleted_at is null
      and ((f.follower_id = me and f.followee_id = target) or (f.follower_id = target and f.followee_id = me));
    delete from public.follow_requests r
    where (r.requester_id = me and r.target_id = target) or (r.requester_id = target and r.target_id = me);
  end if;
  return jsonb_build_object('blocked', true, 'changed', changed > 0,
    'viewer', (select public.profile_json(p) from public.profiles p where p.id = me));
end $$;

create or replace function public.unblock_profile(target uuid) returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
  changed int;
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=block_users';
  end if;
  if not exists (select 1 from public.profiles p where p.id = target) then
    raise exception 'profile_not_found' using errcode = 'PT404', hint = 'profile_not_found';
  end if;
  delete from public.blocks b where b.blocker_id = me and b.blocked_id = target;
  get diagnostics changed = row_count;
  return jsonb_build_object('blocked', false, 'changed', changed > 0,
    'viewer', (select public.profile_json(p) from public.profiles p where p.id = me));
end $$;

-- The caller's blocked profiles, newest block first, as cards (the caller sees nothing else of
-- them), after (after_us, after_id); page_size rows.
create or replace function public.blocked_profiles_page(after_us bigint default null, after_id uuid default null,
                                                        page_size int default 21)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=block_users';
  end if;
  return jsonb_build_object(
    'total', (select count(*) from public.blocks b where b.blocker_id = me),
    'blocked', coalesce((
      select jsonb_agg(jsonb_build_object(
               'created_us', (extract(epoch from q.created_at) * 1000000)::bigint,
               'profile', (select jsonb_build_object(
                   'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', null, 'photo_url', p.photo_url,
                   'home_gym', null, 'climbing_since', null, 'favorite_style', null, 'is_public', p.is_public,
                   'follower_count', p.follower_count, 'following_count', p.following_count, 'created_at', p.created_at,
                   'updated_at', p.updated_at, 'send_count', p.send_count, 'post_count', p.post_count, 'card', true)
                 from public.profiles p where p.id = q.blocked_id))
             order by q.created_at desc, q.blocked_id desc)
      from (select b.blocked_id, b.created_at from public.blocks b
            where b.blocker_id = me
              and (after_us is null
                   or (b.created_at, b.blocked_id) < (timestamptz 'epoch' + after_us * interval '1 microsecond', after_id))
            order by b.created_at desc, b.blocked_id desc
            limit page_size) q), '[]'::jsonb));
end $$;

revoke execute on function
  public.block_profile(uuid), public.unblock_profile(uuid), public.blocked_profiles_page(bigint, uuid, int)
  from public, anon;
grant execute on function
  public.block_profile(uuid), public.unblock_profile(uuid), public.blocked_profiles_page(bigint, uuid, int)
  to authenticated;

-- A block changes what both see of each other everywhere: their profiles, every list and feed
-- they are in, search.
create or replace function social_private.blocks_notify() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record := case when tg_op = 'DELETE' then old else new end;
begin
  perform pg_notify('social_gateway_cache',
    '{"v":1,"table":"blocks","tags":' || array_to_json(array[
      'Profile:' || r.blocker_id, 'Profile:' || r.blocked_id, 'followers:' || r.blocker_id, 'followers:' || r.blocked_id,
      'following:' || r.blocker_id, 'following:' || r.blocked_id, 'followRequests:' || r.blocker_id,
      'followRequests:' || r.blocked_id, 'blocked:' || r.blocker_id, 'follow-lists', 'all-feeds', 'search'])::text || '}');
  return null;
end $$;
revoke execute on function social_private.blocks_notify() from public;
create trigger blocks_cache_notify after insert or delete on public.blocks
  for each row execute function social_private.blocks_notify();
