-- social-gateway schema, part 15: likes and comments on posts (issue 19), with exact counters.
--
-- Both follow the post: a like or a comment is readable exactly when its post is (so when the
-- post's author's profile is visible to the caller), and a user adds their own on posts they
-- can see. A user removes their own like; a comment is removed by its author or by the author
-- of the post it is on. Comments are not edited (no UPDATE). posts.like_count and
-- posts.comment_count change in the transaction that adds or removes the row, through
-- SECURITY DEFINER triggers: the liker may not write someone else's post, and clients hold no
-- grant on the counters.
--
-- A visible post is written out in each policy as in posts_read (the post's author's profile
-- is public or the caller's own): one probe of posts and one of profiles per row, both by
-- primary key. The subqueries run as the caller, so posts' and profiles' own policies apply
-- too and agree; neither reads likes or comments, so nothing recurses.

-- ============ post_likes ============
create table public.post_likes (
  post_id     uuid not null references public.posts (id) on delete cascade,
  profile_id  uuid not null references public.profiles (id) on delete cascade,
  created_at  timestamptz not null default now(),
  primary key (post_id, profile_id)
);
-- A profile's likes (viewer_likes probes the primary key instead), and the cascade when a
-- profile is deleted.
create index post_likes_profile_idx on public.post_likes (profile_id, created_at desc);

create or replace function public.post_likes_maintain_count() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update public.posts set like_count = like_count - 1 where id = old.post_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.posts set like_count = like_count + 1 where id = new.post_id;
  end if;
  return null;
end $$;
revoke execute on function public.post_likes_maintain_count() from public;
create trigger post_likes_count
  after insert or update of post_id or delete on public.post_likes
  for each row execute function public.post_likes_maintain_count();

alter table public.post_likes enable row level security;
revoke all on public.post_likes from anon, authenticated;
grant select on public.post_likes to anon, authenticated;
grant insert (post_id, profile_id) on public.post_likes to authenticated;
grant delete on public.post_likes to authenticated;
grant all on public.post_likes to service_role;

create policy post_likes_read on public.post_likes for select to anon, authenticated
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = post_likes.post_id and (a.is_public or a.id = (select auth.uid()))));
create policy post_likes_insert_own on public.post_likes for insert to authenticated
  with check (
    profile_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = post_likes.post_id and (a.is_public or a.id = (select auth.uid()))));
create policy post_likes_delete_own on public.post_likes for delete to authenticated
  using (
    profile_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = post_likes.post_id and (a.is_public or a.id = (select auth.uid()))));

-- ============ comments ============
create table public.comments (
  id          uuid primary key default gen_random_uuid(),
  post_id     uuid not null references public.posts (id) on delete cascade,
  author_id   uuid not null references public.profiles (id) on delete cascade,
  content     text not null,
  created_at  timestamptz not null default now(),
  -- not blank and 16000 bytes at most: 500 characters at 32 bytes (the gateway counts
  -- grapheme clusters and trims first; see posts_content_len)
  constraint comments_content_len check (
    btrim(content, E' \t\n\r') <> '' and octet_length(content) <= 16000)
);
-- A post's comments oldest first, keyset-paged on (created_at, id) (comment_pages).
create index comments_post_created_idx on public.comments (post_id, created_at, id);
-- The cascade when a profile is deleted.
create index comments_author_idx on public.comments (author_id);

create or replace function public.comments_maintain_count() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update public.posts set comment_count = comment_count - 1 where id = old.post_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.posts set comment_count = comment_count + 1 where id = new.post_id;
  end if;
  return null;
end $$;
revoke execute on function public.comments_maintain_count() from public;
create trigger comments_count
  after insert or update of post_id or delete on public.comments
  for each row execute function public.comments_maintain_count();

alter table public.comments enable row level security;
revoke all on public.comments from anon, authenticated;
grant select on public.comments to anon, authenticated;
grant insert (id, post_id, author_id, content) on public.comments to authenticated;
grant delete on public.comments to authenticated;
grant all on public.comments to service_role;

-- A comment is read where its post is, and only while its own author's profile is visible too:
-- a private profile's comments reach nobody but their author (issue 19, "in every path"), even
-- on someone else's public post; its author's profile could not be shown beside it anyway.
create policy comments_read on public.comments for select to anon, authenticated
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = comments.post_id and (a.is_public or a.id = (select auth.uid())))
         and exists (select 1 from public.profiles w
                     where w.id = comments.author_id and (w.is_public or w.id = (select auth.uid()))));
create policy comments_insert_own on public.comments for insert to authenticated
  with check (
    author_id = (select auth.uid())
    and exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                where p.id = comments.post_id and (a.is_public or a.id = (select auth.uid()))));
-- Its author removes a comment, and so does the author of the post it is on (moderation of
-- one's own posts). DELETE also needs the row readable (comments_read), so both need the
-- post visible; a post's author always sees their own post.
create policy comments_delete_own_or_on_own_post on public.comments for delete to authenticated
  using (
    author_id = (select auth.uid())
    or exists (select 1 from public.posts p
               where p.id = comments.post_id and p.author_id = (select auth.uid())));
