-- social-gateway schema, part 10: seed 000's sendCount on every profile.
--
-- SCProfile and every search and follower result of the seed carry send_count: how many sends
-- (climbs completed) the climber has logged. It is a stored counter, written by whatever keeps
-- the climbing log (the service role), never by clients: the column grants of 000100 name the
-- columns a user may update, and this one is not among them.
alter table public.profiles
  add column if not exists send_count integer not null default 0 check (send_count >= 0);

-- profile_json feeds follow_pages and the follow mutations' outcome: the same columns as a read.
create or replace function public.profile_json(p public.profiles) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', p.bio,
    'photo_url', p.photo_url, 'home_gym', p.home_gym, 'climbing_since', p.climbing_since,
    'favorite_style', p.favorite_style, 'is_public', p.is_public,
    'follower_count', p.follower_count, 'following_count', p.following_count,
    'created_at', p.created_at, 'updated_at', p.updated_at, 'send_count', p.send_count)
$$;
