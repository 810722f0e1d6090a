-- social-gateway schema, part 14: posts (issue 19; seed 004's Post, seed 003's feed), and the
-- author's post_count.
--
-- A post belongs to its author's profile and is seen by whoever sees that profile: public
-- profiles' posts by everyone, a private profile's by its owner only (the same rule as
-- profiles_read, so a post never shows more than its author's profile does). Clients write
-- posts through PostgREST (POST/PATCH/DELETE /rest/v1/posts) under the policies and column
-- grants below; the counters (like_count, comment_count here, post_count on profiles) are kept
-- by SECURITY DEFINER triggers in the writing transaction and are never client-writable.
--
-- Bounds: the gateway trims a post and counts its characters before writing; the database
-- refuses a blank post, more than 2000 code points or 8000 UTF-8 bytes, more than 4 image URLs,
-- and URLs that are not http(s) or longer than 2048 bytes, so the row stays bounded whoever
-- writes it (PostgREST with the anon key, the service role).

-- Every image URL well formed: a function, since a check constraint cannot hold a subquery.
-- Executable by everyone: a check constraint's function needs EXECUTE for the role that writes
-- (42501 otherwise), and it reveals nothing.
create or replace function public.post_image_urls_valid(urls text[]) returns boolean
language sql immutable set search_path = '' as $$
  select urls is not null
     and cardinality(urls) <= 4
     and coalesce(array_ndims(urls), 1) = 1
     and not exists (select 1 from unnest(urls) as u(url)
                     where u.url is null or u.url !~ '^https?://' or octet_length(u.url) > 2048)
$$;
grant execute on function public.post_image_urls_valid(text[]) to public;

create table public.posts (
  id             uuid primary key default gen_random_uuid(),
  author_id      uuid not null references public.profiles (id) on delete cascade,
  content        text not null,
  image_urls     text[] not null default '{}',
  like_count     integer not null default 0 check (like_count >= 0),
  comment_count  integer not null default 0 check (comment_count >= 0),
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  -- not blank (spaces, tabs, line breaks) and 64000 bytes at most: the gateway counts 2000
  -- user-visible characters (grapheme clusters, PostRules) at 32 bytes each, which a code-point
  -- bound would refuse (an emoji with a skin tone is two code points); see migration 000600.
  constraint posts_content_len check (
    btrim(content, E' \t\n\r') <> '' and octet_length(content) <= 64000),
  constraint posts_image_urls_count check (cardinality(image_urls) <= 4),
  constraint posts_image_urls_valid check (public.post_image_urls_valid(image_urls))
);

-- An author's posts newest first: profile pages (post_pages) and the feed's per-author walk
-- (feed_page), both keyset-paged on (created_at, id).
create index posts_author_created_idx on public.posts (author_id, created_at desc, id desc);

-- updated_at moves only when the post's text or images change, never for its counters.
create or replace function public.posts_touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  if (new.content, new.image_urls) is distinct from (old.content, old.image_urls) then
    new.updated_at := now();
  end if;
  return new;
end $$;
create trigger posts_touch before update on public.posts
  for each row execute function public.posts_touch_updated_at();

-- ============ profiles.post_count ============
alter table public.profiles
  add column if not exists post_count integer not null default 0 check (post_count >= 0);
-- Posts made before this column existed (none on a new project; a no-op then).
update public.profiles p set post_count = c.n
from (select author_id, count(*)::int as n from public.posts group by author_id) c
where c.author_id = p.id;

-- The count changes in the transaction that adds or removes the post. SECURITY DEFINER because
-- the author may not write their profile's counters (no column grant). Deleting a profile
-- cascades to its posts; their update of the vanishing profile then finds no row, as for
-- follows_maintain_counts.
create or replace function public.posts_maintain_post_count() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update public.profiles set post_count = post_count - 1 where id = old.author_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.profiles set post_count = post_count + 1 where id = new.author_id;
  end if;
  return null;
end $$;
revoke execute on function public.posts_maintain_post_count() from public;
create trigger posts_post_count
  after insert or update of author_id or delete on public.posts
  for each row execute function public.posts_maintain_post_count();

-- ... and the author's profile row is locked FOR UPDATE before the post is written. Every UPDATE
-- of profiles takes the row's strongest lock, the one FOR KEY SHARE conflicts with: profiles has
-- a BEFORE UPDATE trigger (profiles_touch), so PostgreSQL counts its generated key column
-- handle_lower as updated whatever the statement sets. Without this, inserting a post took the
-- foreign key's FOR KEY SHARE on its author's row, then waited to update post_count behind a
-- follow toggle that held the row FOR NO KEY UPDATE (lock_follow_pair) and now waited for that
-- KEY SHARE to update follower_count: a deadlock [seen in scripts/test-supabase-sql's
-- concurrent requests]. Locked first, the row is the post's to update, and the insert's own
-- KEY SHARE does not conflict with it. A lock, not the increment itself: an INSERT ... ON
-- CONFLICT DO NOTHING (PostgREST's ignore-duplicates) runs BEFORE triggers for rows it then
-- skips, and the count moves only in the AFTER trigger, for rows really inserted.
create or replace function public.posts_lock_author() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op = 'UPDATE' and old.author_id is distinct from new.author_id then
    perform 1 from public.profiles where id in (old.author_id, new.author_id) order by id for update;
  else
    perform 1 from public.profiles where id = new.author_id for update;
  end if;
  return new;
end $$;
revoke execute on function public.posts_lock_author() from public;
create trigger posts_lock_author
  before insert or update of author_id on public.posts
  for each row execute function public.posts_lock_author();

-- profile_json feeds follow_pages and the follow mutations' outcome: the same columns as a read,
-- post_count now among them (readers ignore keys they do not know).
create or replace function public.profile_json(p public.profiles) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', p.id, 'handle', p.handle, 'display_name', p.display_name, 'bio', p.bio,
    'photo_url', p.photo_url, 'home_gym', p.home_gym, 'climbing_since', p.climbing_since,
    'favorite_style', p.favorite_style, 'is_public', p.is_public,
    'follower_count', p.follower_count, 'following_count', p.following_count,
    'created_at', p.created_at, 'updated_at', p.updated_at, 'send_count', p.send_count,
    'post_count', p.post_count)
$$;

-- ============ privileges and row-level security ============
-- Supabase's default privileges grant everything on new tables to anon and authenticated:
-- take it back, then grant what the rules below need. The id may be chosen by the client (an
-- offline-first app makes it before syncing); created_at, updated_at and the counters may not.
-- Clients edit a post's text and images only.
alter table public.posts enable row level security;
revoke all on public.posts from anon, authenticated;
grant select on public.posts to anon, authenticated;
grant insert (id, author_id, content, image_urls) on public.posts to authenticated;
grant update (content, image_urls) on public.posts to authenticated;
grant delete on public.posts to authenticated;
grant all on public.posts to service_role;

-- A post is readable when its author's profile is: public, or the caller's own. Written out
-- (not left to profiles' own policy alone) so the rule reads here; one primary-key probe of
-- profiles per post, `(select auth.uid())` once per statement.
create policy posts_read on public.posts for select to anon, authenticated
  using (exists (select 1 from public.profiles a
                 where a.id = posts.author_id and (a.is_public or a.id = (select auth.uid()))));
create policy posts_insert_own on public.posts for insert to authenticated
  with check (author_id = (select auth.uid()));
create policy posts_update_own on public.posts for update to authenticated
  using (author_id = (select auth.uid())) with check (author_id = (select auth.uid()));
create policy posts_delete_own on public.posts for delete to authenticated
  using (author_id = (select auth.uid()));
