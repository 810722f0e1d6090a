-- Issue 54: who liked a post. One page of likers per request, in request order, in one call (the
-- gateway's loader asks every Post.likers of a query level at once), newest like first. By the
-- edge rule (issue 52, SocialDomain's SocialRules.showsEdge): a like by C on A's post is listed
-- iff the caller sees A (else the post is not visible: no likers, total 0) and sees C, each by
-- social_private.sees_profile with the caller's lists computed once. total is the post's stored
-- like_count: hidden likes show only as a number, never who.
--
-- requests: [{"post": uuid, "limit": 0..100, "after_us": bigint|null, "after_id": uuid|null}]
-- answer:   [{"total": n, "likers": [{"liked_us": bigint, "profile": profile_json}]}], up to
--           limit + 1 likers each (the extra one says there is a next page).
create index if not exists post_likes_post_idx on public.post_likes (post_id, created_at desc, profile_id desc);

create or replace function public.liker_pages(requests jsonb)
returns jsonb
-- definer: it applies the caller's visibility itself, through the rule, to the post's author and
-- to each liker (post_likes_read would do the first only)
language plpgsql stable security definer set search_path = '' set jit = off as $$
declare
  me constant uuid := auth.uid();
  follows constant uuid[] := social_private.viewer_private_followees();
  peers constant uuid[] := social_private.viewer_block_peers();
begin
  if jsonb_typeof(requests) is distinct from 'array' or jsonb_array_length(requests) > 100 then
    raise exception 'bad_request' using errcode = '22023', detail = 'requests must be an array of at most 100';
  end if;
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'total', coalesce(v.like_count, 0),
             'likers', case when v.like_count is null or q.fetch = 1 then '[]'::jsonb else coalesce((
               select jsonb_agg(jsonb_build_object('liked_us', x.liked_us, 'profile', x.profile)
                                order by x.created_at desc, x.profile_id desc)
               from (select l.created_at, l.profile_id, (extract(epoch from l.created_at) * 1000000)::bigint as liked_us,
                            public.profile_json(w) as profile
                     from public.post_likes l join public.profiles w on w.id = l.profile_id
                     where l.post_id = q.post
                       and (q.after_us is null
                            or (l.created_at, l.profile_id)
                               < (timestamptz 'epoch' + q.after_us * interval '1 microsecond', q.after_id))
                       and social_private.sees_profile(me, follows, peers, w.id, w.is_public)
                     order by l.created_at desc, l.profile_id desc
                     limit q.fetch) x), '[]'::jsonb) end)
           order by r.ord)
    from jsonb_array_elements(requests) with ordinality as r(value, ord)
    cross join lateral (
      select (r.value ->> 'post')::uuid as post,
             least(greatest(coalesce((r.value ->> 'limit')::int, 20), 0), 100) + 1 as fetch,
             (r.value ->> 'after_us')::bigint as after_us,
             coalesce((r.value ->> 'after_id')::uuid, '00000000-0000-0000-0000-000000000000') as after_id) q
    left join lateral (
      select p.like_count from public.posts p join public.profiles a on a.id = p.author_id
      where p.id = q.post and social_private.sees_profile(me, follows, peers, a.id, a.is_public)) v on true),
    '[]'::jsonb);
end $$;

revoke all on function public.liker_pages(jsonb) from public;
grant execute on function public.liker_pages(jsonb) to anon, authenticated;
