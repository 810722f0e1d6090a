-- social-gateway schema, part 1: the `profiles` and `follows` tables, their indexes, and the
-- triggers that keep `updated_at` and the follow counters right.
--
-- Apply in the Supabase SQL editor or with `supabase db push`, as the `postgres` role, in file
-- order. Names here are the contract of the gateway's requests (supabase/README.md).

-- ============ profiles ============
create table public.profiles (
  id               uuid primary key references auth.users (id) on delete cascade,
  handle           text not null,
  -- lower(handle): the unique key, the `handle_lower=in.(...)` lookup and the search order.
  handle_lower     text generated always as (lower(handle)) stored,
  display_name     text,
  bio              text,
  photo_url        text,
  home_gym         text,
  climbing_since   date,
  favorite_style   text,
  is_public        boolean not null default true,
  follower_count   integer not null default 0 check (follower_count  >= 0),
  following_count  integer not null default 0 check (following_count >= 0),
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  constraint profiles_handle_format     check (handle ~ '^[a-zA-Z][a-zA-Z0-9_]{2,29}$'),
  -- lengths count code points (char_length), as the gateway's validation does
  constraint profiles_display_name_len  check (display_name is null or char_length(display_name) <= 50),
  constraint profiles_bio_len           check (bio is null or char_length(bio) <= 280),
  constraint profiles_home_gym_len      check (home_gym is null or char_length(home_gym) <= 100),
  constraint profiles_favorite_style_len check (favorite_style is null or char_length(favorite_style) <= 100)
);

-- Handles are unique case-insensitively: a clash is 23505 on "profiles_handle_lower_key".
create unique index profiles_handle_lower_key on public.profiles (handle_lower);

-- Search: ILIKE '%q%' on handle / display name through trigram indexes ...
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;
create index profiles_handle_trgm  on public.profiles using gin (handle extensions.gin_trgm_ops);
create index profiles_display_trgm on public.profiles using gin (display_name extensions.gin_trgm_ops);
-- ... and keyset pages ordered by (lower(handle), id), public profiles only.
create index profiles_search_keyset_idx on public.profiles (handle_lower, id) where is_public;

-- updated_at moves only for user-visible edits, never for counter changes.
create or replace function public.profiles_touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  if (new.handle, new.display_name, new.bio, new.photo_url, new.home_gym, new.climbing_since,
      new.favorite_style, new.is_public)
     is distinct from
     (old.handle, old.display_name, old.bio, old.photo_url, old.home_gym, old.climbing_since,
      old.favorite_style, old.is_public) then
    new.updated_at := now();
  end if;
  return new;
end $$;
create trigger profiles_touch before update on public.profiles
  for each row execute function public.profiles_touch_updated_at();

-- ============ follows ============
create table public.follows (
  id           uuid primary key default gen_random_uuid(),
  follower_id  uuid not null,
  followee_id  uuid not null,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  deleted_at   timestamptz,                      -- soft delete; a re-follow clears it
  constraint follows_follower_id_fkey foreign key (follower_id) references public.profiles (id) on delete cascade,
  constraint follows_followee_id_fkey foreign key (followee_id) references public.profiles (id) on delete cascade,
  constraint follows_pair_key unique (follower_id, followee_id),
  constraint follows_not_self check (follower_id <> followee_id)
);
-- Keyset pages: followers of X / following of X, newest first, active rows only.
create index follows_followee_page_idx on public.follows (followee_id, created_at desc, id desc) where deleted_at is null;
create index follows_follower_page_idx on public.follows (follower_id, created_at desc, id desc) where deleted_at is null;

create or replace function public.follows_touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;
create trigger follows_touch before update on public.follows
  for each row execute function public.follows_touch_updated_at();

-- Counters change in the same transaction as the follow they count. SECURITY DEFINER because
-- row-level security stops a follower from updating the followee's profile row.
create or replace function public.follows_maintain_counts() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  delta int := 0;
  f uuid;
  t uuid;
begin
  if tg_op = 'INSERT' then
    f := new.follower_id; t := new.followee_id;
    if new.deleted_at is null then delta := 1; end if;
  elsif tg_op = 'DELETE' then
    f := old.follower_id; t := old.followee_id;
    if old.deleted_at is null then delta := -1; end if;
  else
    f := new.follower_id; t := new.followee_id;
    if old.deleted_at is null and new.deleted_at is not null then delta := -1;
    elsif old.deleted_at is not null and new.deleted_at is null then delta := 1;
    end if;
  end if;
  if delta <> 0 then
    -- lock both rows in id order so mutual follows never deadlock
    if f < t then
      update public.profiles set following_count = following_count + delta where id = f;
      update public.profiles set follower_count  = follower_count  + delta where id = t;
    else
      update public.profiles set follower_count  = follower_count  + delta where id = t;
      update public.profiles set following_count = following_count + delta where id = f;
    end if;
  end if;
  return null;
end $$;
revoke execute on function public.follows_maintain_counts() from public;
create trigger follows_counts
  after insert or update of deleted_at or delete on public.follows
  for each row execute function public.follows_maintain_counts();

-- A profile row for every new user (handle `user_<12 hex>`, renameable later).
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profiles (id, handle, display_name)
  values (new.id, 'user_' || substr(replace(new.id::text, '-', ''), 1, 12),
          nullif(left(split_part(coalesce(new.email, ''), '@', 1), 50), ''));
  return new;
end $$;
revoke execute on function public.handle_new_user() from public;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();
