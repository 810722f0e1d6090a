-- social-gateway schema, part 6: a follow can always be removed by its follower.
--
-- Follow, unfollow and toggle all began with `follow_check`, which answers "Profile not found"
-- when the target is hidden from the caller. So once a followed profile turned private, its
-- followers could never unfollow it: the follow stayed, and their following_count stayed raised,
-- for good. Now the follower may remove their own active follow whatever the target's visibility
-- (unfollow, or a toggle of a followed profile); following, and unfollowing a profile one does not
-- follow, still need the target visible, so a private profile stays "not found" to strangers and
-- these functions reveal nothing new: only someone who follows a profile learns it still exists.
--
-- The pair's profile rows are locked first (social_private.lock_follow_pair, in id order), so the
-- "is there an active follow" read and the write that depends on it are serialised with every
-- other follow mutation of the pair, as the one upsert of 20250301000200 was: concurrent toggles
-- still never lose one.

create or replace function social_private.follow_caller(target uuid) returns uuid
language plpgsql stable security invoker set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'You must be logged in to follow users' using errcode = 'PT401', hint = 'authentication_required';
  end if;
  if me = target then
    raise exception 'You cannot follow yourself' using errcode = 'PT400', hint = 'cannot_follow_self';
  end if;
  return me;
end $$;
revoke execute on function social_private.follow_caller(uuid) from public;
grant execute on function social_private.follow_caller(uuid) to authenticated;

-- Whether `me` follows `target` now (the definer reads follows whatever RLS would show).
create or replace function social_private.is_following(me uuid, target uuid) returns boolean
language sql stable security invoker set search_path = '' as $$
  select exists (select 1 from public.follows
                 where follower_id = me and followee_id = target and deleted_at is null)
$$;
revoke execute on function social_private.is_following(uuid, uuid) from public;
grant execute on function social_private.is_following(uuid, uuid) to authenticated;

create or replace function public.unfollow_profile(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.is_following(me, target) then
    update public.follows set deleted_at = now()
    where follower_id = me and followee_id = target and deleted_at is null;
  else
    perform public.follow_check(target);  -- not following: "not found" when hidden, as before
  end if;
  return public.follow_outcome(me, target);
end $$;

create or replace function public.toggle_follow(target uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := social_private.follow_caller(target);
begin
  perform social_private.lock_follow_pair(me, target);
  if social_private.is_following(me, target) then
    update public.follows set deleted_at = now()
    where follower_id = me and followee_id = target and deleted_at is null;
  else
    perform public.follow_check(target);
    insert into public.follows as f (follower_id, followee_id) values (me, target)
    on conflict (follower_id, followee_id) do update set deleted_at = null
      where f.deleted_at is not null;
  end if;
  return public.follow_outcome(me, target);
end $$;

revoke execute on function public.unfollow_profile(uuid), public.toggle_follow(uuid) from public, anon;
grant execute on function public.unfollow_profile(uuid), public.toggle_follow(uuid) to authenticated;
