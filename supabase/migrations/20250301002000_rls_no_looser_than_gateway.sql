-- social-gateway schema, part 21: row-level security no looser than the gateway (issue 37, §5).
--
-- A client holding only the anon key, or a signed-in user talking to PostgREST directly, could
-- do more than the gateway lets anyone do:
--   1. read a private profile's likes (post_likes_read checked the post, not the liker);
--   2. read every public profile's stories and follows, and call search_profiles, anonymously,
--      where the gateway answers UNAUTHENTICATED (GetStories, the story node, GetFollowList,
--      SearchProfiles, GetFollowStates, SyncFollows all need a signed-in viewer);
--   3. insert a story row with any media_url, media_type and a media_path naming no file, past
--      any quota, and set profiles.photo_url to `javascript:alert(1)`;
--   4. call follow_check (and so lock_follow_pair) and hold FOR UPDATE locks on any two
--      profiles until its transaction ends.
-- Each now agrees with the gateway. A new file: projects have applied the earlier ones.

-- ============ 1. likes: the liker's profile must be visible too ============
-- A like is readable when its post is (the post's author visible) and its liker's profile is
-- visible to the caller, public or the caller's own: a private profile's likes reach nobody but
-- itself, as its comments do (comments_read). The stored like_count still counts every like
-- (see "Counters" in supabase/README.md).
drop policy post_likes_read on public.post_likes;
create policy post_likes_read on public.post_likes for select to anon, authenticated
  using (exists (select 1 from public.posts p join public.profiles a on a.id = p.author_id
                 where p.id = post_likes.post_id and (a.is_public or a.id = (select auth.uid())))
         and exists (select 1 from public.profiles w
                     where w.id = post_likes.profile_id and (w.is_public or w.id = (select auth.uid()))));

-- ============ 2. signed-in only: follows, stories, search ============
-- The policies now name `authenticated` alone, so anon reads no row of either table (RLS
-- denies by default). anon keeps its SELECT privilege so that invoker functions anon may call
-- to be told "sign in" (active_stories, feed_page_with_sources raise PT401) still plan; they
-- simply see no rows. The list functions the gateway calls only for signed-in viewers are no
-- longer anon's to run (42501).
alter policy follows_read on public.follows to authenticated;
alter policy stories_read on public.stories to authenticated;
revoke execute on function
  public.search_profiles(text, text, uuid, int), public.follow_pages(jsonb),
  public.follow_pages_with_states(jsonb), public.active_follows(jsonb)
  from public, anon;
grant execute on function
  public.search_profiles(text, text, uuid, int), public.follow_pages(jsonb),
  public.follow_pages_with_states(jsonb), public.active_follows(jsonb)
  to authenticated;

-- ============ 4. internal helpers: no direct execute ============
-- follow_check, follow_outcome and the social_private helpers are called by the SECURITY
-- DEFINER mutations (follow_profile, unfollow_profile, toggle_follow), which run them as their
-- owner: nobody else needs to. Called directly, follow_check took FOR UPDATE locks on the
-- caller's and any visible profile (lock_follow_pair) and held them for the rest of the
-- caller's transaction; lock_follow_pair itself locked any two profiles.
revoke execute on function
  public.follow_check(uuid), public.follow_outcome(uuid, uuid),
  social_private.lock_follow_pair(uuid, uuid), social_private.follow_caller(uuid),
  social_private.is_following(uuid, uuid)
  from public, anon, authenticated;

-- ============ 3a. URLs of the project's own storage only ============
-- The gateway writes two layouts, both `http(s)://<host>[/<prefix>]/...`:
--   Supabase Storage:         .../storage/v1/object/public/<bucket>/<owner uid>/<file>
--   the gateway's own files:  <PUBLIC_URL>/avatars/<owner uid>/<file>, <PUBLIC_URL>/stories/<owner uid>/<file>
--     (the PostgreSQL store without SUPABASE_URL; PUBLIC_URL may carry a path prefix)
-- Both end in `/<bucket>/<owner uid>/<file>`; the owner must be the row's own profile. The host
-- cannot be checked here (the database does not know its public URL), but the scheme, the shape
-- and the owner are: no `javascript:` or `data:` URL, no query, no fragment, no user info, no
-- `..` segment, and never someone else's folder.
create or replace function social_private.own_media_url(url text, bucket text, owner_id uuid) returns boolean
language sql immutable set search_path = '' as $$
  select url is not null and octet_length(url) <= 2048
    and url ~ ('^https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*/'
               || bucket || '/[0-9a-f-]{36}/[A-Za-z0-9_][A-Za-z0-9._-]*$')
    and (regexp_match(url, '/' || bucket || '/([0-9a-f-]{36})/[^/]*$'))[1] = owner_id::text
$$;
-- Pure, and evaluated by the constraints below for whoever writes (users, the service role, the
-- auth trigger): everyone may run it, as post_image_urls_valid.
grant execute on function social_private.own_media_url(text, text, uuid) to public;

-- Existing rows: a photo_url outside the layout is cleared (the profile shows no photo, as it
-- would after deleteAvatar), so the constraint below is valid for every row; a NOT VALID one
-- would refuse every later edit of such a profile. A story outside it is deleted (stories last
-- 24 hours, and such a row is the hole itself). Both write through the triggers as usual
-- (updated_at, cache notifications).
update public.profiles set photo_url = null
where photo_url is not null and not social_private.own_media_url(photo_url, 'avatars', id);
alter table public.profiles add constraint profiles_photo_url_own_storage
  check (photo_url is null or social_private.own_media_url(photo_url, 'avatars', id));

delete from public.stories
where not social_private.own_media_url(media_url, 'stories', author_id)
   or right(media_url, char_length(media_path) + 1) <> '/' || media_path;
-- The URL names the row's own media_path (which stories_media_path_owner keeps in the author's
-- folder), so a story shows the file it says it shows.
alter table public.stories add constraint stories_media_url_own_storage
  check (social_private.own_media_url(media_url, 'stories', author_id)
         and right(media_url, char_length(media_path) + 1) = '/' || media_path);

-- ============ 3b. story writes only through create_story ============
-- How many unexpired stories one author may have (CreateStory.maxActiveStories in the gateway,
-- which checks first, before it stores a file).
create or replace function social_private.max_active_stories() returns int
language sql immutable set search_path = '' as $$ select 30 $$;
grant execute on function social_private.max_active_stories() to authenticated, service_role;

-- public.create_story(media_path, media_type, media_url): the caller's new story, its row as
-- the table stores it. Checks, in order (errors as the follow functions raise them):
--   - signed in                                             PT401 authentication_required
--   - media_path is `<caller uid>/<unix>_<8 hex>.<jpg|png|mp4|mov>` (the gateway's names),
--     media_type the extension's (image: jpg/png, video: mp4/mov)        22023 invalid_story_media
--   - media_url is the project's URL of that very path (3a)          22023 invalid_story_media
--   - the file exists: a row of storage.objects in the `stories` bucket under that name
--     (Supabase Storage writes it on upload; the PostgreSQL store that keeps story files itself
--     records its row in the same transaction)                          PT404 story_media_not_found
--   - fewer than max_active_stories() unexpired stories of the caller
--                                  PT429 too_many_stories, detail `retry_after=<seconds>`
--     (seconds until the oldest of them expires, at least 1). The caller's stories are
--     serialised by a transaction advisory lock, so concurrent calls cannot pass the quota.
-- SECURITY DEFINER: clients hold no INSERT on stories, so this is the only way in.
create or replace function public.create_story(media_path text, media_type text, media_url text)
returns setof public.stories
language plpgsql volatile security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
  active int;
  oldest timestamptz;
  wait int;
begin
  if me is null then
    raise exception 'You must be logged in to post stories' using errcode = 'PT401', hint = 'authentication_required';
  end if;
  if create_story.media_path is null
     or create_story.media_path !~ ('^' || me::text || '/[0-9]{1,19}_[0-9a-f]{8}\.(jpg|png|mp4|mov)$')
     or create_story.media_type is distinct from
          (case when create_story.media_path ~ '\.(jpg|png)$' then 'image' else 'video' end) then
    raise exception 'A story''s file must be in your own folder, named as the gateway names it, with its media type'
      using errcode = '22023', hint = 'invalid_story_media';
  end if;
  if not social_private.own_media_url(create_story.media_url, 'stories', me)
     or right(create_story.media_url, char_length(create_story.media_path) + 1) <> '/' || create_story.media_path then
    raise exception 'A story''s URL must be the public URL of its file' using errcode = '22023', hint = 'invalid_story_media';
  end if;
  if not exists (select 1 from storage.objects o where o.bucket_id = 'stories' and o.name = create_story.media_path) then
    raise exception 'Story file not found' using errcode = 'PT404', hint = 'story_media_not_found';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('stories:' || me::text, 0));
  select count(*)::int, min(s.expires_at) into active, oldest
  from public.stories s where s.author_id = me and s.expires_at > pg_catalog.clock_timestamp();
  if active >= social_private.max_active_stories() then
    wait := greatest(1, ceil(extract(epoch from oldest - pg_catalog.clock_timestamp()))::int);
    raise exception 'You have % active stories, the most allowed', active
      using errcode = 'PT429', hint = 'too_many_stories', detail = 'retry_after=' || wait;
  end if;
  return query
    insert into public.stories as s (author_id, media_url, media_path, media_type)
    values (me, create_story.media_url, create_story.media_path, create_story.media_type)
    returning s.*;
end $$;
revoke execute on function public.create_story(text, text, text) from public, anon;
grant execute on function public.create_story(text, text, text) to authenticated;

-- No direct insert: revoking the table privilege revokes the column grants of 001500 too.
drop policy stories_insert_own on public.stories;
revoke insert on public.stories from anon, authenticated;
