-- Issue 54: the caller's own pending follow requests, newest first, each profile asked as the
-- caller sees it (a card: the caller does not follow it yet). What a client shows as "Requested";
-- cancelling one is an unfollow (unfollow_profile / set_follow), as before. Shaped like
-- follow_request_page (20250301002300): one jsonb answer with the total, read in order on an
-- index of its own (the requester's side of follow_requests_target_pending_idx).
create index if not exists follow_requests_requester_pending_idx
  on public.follow_requests (requester_id, created_at desc, target_id desc) where status = 'pending';

create or replace function public.sent_follow_request_page(after_us bigint default null, after_id uuid default null,
                                                           page_size int default 21)
returns jsonb
-- definer: it reads the caller's own rows only (requester_id = auth.uid()), and shows each profile
-- asked through social_private.profile_as_seen, which applies the caller's visibility itself
language plpgsql stable security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
begin
  if me is null then
    raise exception 'authentication_required'
      using errcode = 'PT401', hint = 'authentication_required', detail = 'action=manage_follow_requests';
  end if;
  return jsonb_build_object(
    'total', (select count(*) from public.follow_requests r where r.requester_id = me and r.status = 'pending'),
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object(
               'created_us', (extract(epoch from q.created_at) * 1000000)::bigint,
               'target', q.target)
             order by q.created_at desc, q.target_id desc)
      from (select r.target_id, r.created_at, social_private.profile_as_seen(r.target_id) as target
            from public.follow_requests r
            where r.requester_id = me and r.status = 'pending'
              and (after_us is null
                   or (r.created_at, r.target_id) < (timestamptz 'epoch' + after_us * interval '1 microsecond', after_id))
            order by r.created_at desc, r.target_id desc
            limit least(greatest(page_size, 1), 101)) q
      where q.target is not null), '[]'::jsonb));
end $$;

revoke all on function public.sent_follow_request_page(bigint, uuid, int) from public, anon;
grant execute on function public.sent_follow_request_page(bigint, uuid, int) to authenticated;
