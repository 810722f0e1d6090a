import Foundation
import Hummingbird
import SocialDomain
import SupabaseSchema

/// The fake's `/rest/v1` side: the `profiles` table and the functions of
/// `supabase/migrations/20250301000200_gateway_functions.sql`. Runs under ``SupabaseFake/lock``.
/// Requests are read as the argument types the stores send, and rows written as the
/// `SupabaseSchema` row types they decode (`ProfileRow`, `OwnerDetailsRow`, `IdRow`, ...).
extension SupabaseFake {
    func rest(_ request: RecordedRequest, caller: Caller) -> Response {
        let query = Self.parseQuery(request.query)
        if let answer = postRoute(request, query: query, caller: caller) { return answer }
        if let answer = storyRoute(request, query: query, caller: caller) { return answer }
        if let answer = followRequestRoute(request, caller: caller) { return answer }
        if let answer = socialGraphRoute(request, caller: caller) { return answer }
        let columns = Self.arguments(FakeColumnUpdates.self, request) ?? FakeColumnUpdates()
        switch (request.method, request.path) {
        case ("GET", "/rest/v1/profiles"): return readProfiles(query, caller: caller)
        case ("PATCH", "/rest/v1/profiles"): return patchProfile(query, body: columns, caller: caller)
        case ("GET", "/rest/v1/profile_private"): return readOwnerDetails(query, caller: caller)
        case ("PATCH", "/rest/v1/profile_private"): return patchOwnerDetails(query, body: columns, caller: caller)
        case ("POST", "/rest/v1/rpc/search_profiles"): return search(Self.arguments(SearchArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/search_profiles_ranked"):
            return rankedSearch(Self.arguments(RankedSearchArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/handle_available"): return handleAvailable(Self.arguments(FakeHandle.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/follow_pages"): return followPages(Self.arguments(FollowPagesArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/follow_pages_with_states"):
            return followPages(Self.arguments(FollowPagesArguments.self, request), caller: caller, withStates: true)
        case ("POST", "/rest/v1/rpc/active_follows"): return activeFollows(Self.arguments(ActiveFollowsArguments.self, request))
        case ("POST", "/rest/v1/rpc/follow_changes"): return followChanges(Self.arguments(FollowChangesArguments.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/follow_profile"): return changeFollow(.follow, Self.arguments(FakeTarget.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/unfollow_profile"): return changeFollow(.unfollow, Self.arguments(FakeTarget.self, request), caller: caller)
        case ("POST", "/rest/v1/rpc/toggle_follow"): return changeFollow(.toggle, Self.arguments(FakeTarget.self, request), caller: caller)
        default:
            return Self.pgError(404, "PGRST202", "Could not find the function or table \(request.path) in the schema cache")
        }
    }

    /// `handle_available(handle)` of migration 20250301000700: every profile (a definer), the
    /// caller's own handle free to them; `true` or `false`.
    func handleAvailable(_ body: FakeHandle?, caller: Caller) -> Response {
        guard let handle = body?.handle.lowercased() else {
            return Self.pgError(400, "PGRST202", "Could not find the function public.handle_available without parameters")
        }
        let me: UUID? = if case .user(let id) = caller { id } else { nil }
        let taken = profilesById.values.contains { $0.handle.lowercased() == handle && $0.id != me }
        return Self.json(200, !taken)
    }

    /// `name=value` pairs, decoded as PostgREST's server does (`+` is a space).
    static func parseQuery(_ raw: String) -> [(String, String)] {
        raw.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// The operands of `in.(a,"b,c")`.
    static func inOperands(_ value: String) -> [String]? {
        guard value.hasPrefix("in.("), value.hasSuffix(")") else { return nil }
        var items: [String] = [], current = "", quoted = false, escaped = false
        for ch in value.dropFirst(4).dropLast() {
            if escaped { current.append(ch); escaped = false }
            else if quoted && ch == "\\" { escaped = true }
            else if ch == "\"" { quoted.toggle() }
            else if ch == "," && !quoted { items.append(current); current = "" }
            else { current.append(ch) }
        }
        items.append(current)
        return items
    }

    /// `profiles_read` as migration 20250301002300 has it: public, the caller's own, or one the
    /// caller actively follows.
    func visible(_ profile: Profile, _ caller: Caller) -> Bool {
        guard case .user(let id) = caller else { return profile.isPublic }
        if id == profile.id { return true }
        if blockedEither(id, profile.id) { return false }
        return profile.isPublic || activeFollowIndex(id, profile.id) != nil
    }

    /// Whether either profile blocks the other.
    func blockedEither(_ a: UUID, _ b: UUID) -> Bool {
        blocks[FollowPair(follower: a, followee: b)] != nil || blocks[FollowPair(follower: b, followee: a)] != nil
    }

    static func row(_ p: Profile) -> ProfileRow {
        func ts(_ date: Date) -> String { timestamp(UnixMicroseconds.from(date)) }
        return ProfileRow(
            id: p.id.lowercased, handle: p.handle, display_name: p.displayName, bio: p.bio, photo_url: p.avatarURL,
            home_gym: p.homeGym, climbing_since: p.climbingSince?.description, favorite_style: p.favoriteStyle,
            is_public: p.isPublic, follower_count: p.followerCount, following_count: p.followingCount, send_count: p.sendCount,
            post_count: p.postCount, created_at: ts(p.createdAt), updated_at: ts(p.updatedAt))
    }

    /// `2025-03-02T10:11:12.345678+00:00`, as PostgREST prints a timestamptz in UTC.
    static func timestamp(_ micros: Int64) -> String {
        UnixMicroseconds.timestamp(micros, utcDesignator: "+00:00")
    }

    /// The stores select every column (`ProfileRow.columnNames`), or `id` alone (the
    /// configuration check); any other `select=` gets every column.
    func readProfiles(_ query: [(String, String)], caller: Caller) -> Response {
        var rows = profilesById.values.filter { visible($0, caller) }
        var idOnly = false
        for (name, value) in query {
            switch name {
            case "select": idOnly = value == "id"
            case "limit": rows = Array(rows.prefix(Int(value) ?? rows.count))
            case "id", "handle_lower":
                guard let keys = Self.inOperands(value).map(Set.init) else { return Self.pgError(400, "PGRST100", "unsupported filter \(value)") }
                rows = rows.filter { keys.contains(name == "id" ? $0.id.lowercased : $0.handle.lowercased()) }
            default: return Self.pgError(400, "42703", "column profiles.\(name) does not exist")
            }
        }
        let sorted = rows.sorted { $0.id.lowercased < $1.id.lowercased }
        return idOnly ? Self.rows(sorted.map { IdRow(id: $0.id.lowercased) }) : Self.rows(sorted.map(Self.row))
    }

    func patchProfile(_ query: [(String, String)], body: FakeColumnUpdates, caller: Caller) -> Response {
        guard let id = query.first(where: { $0.0 == "id" }).flatMap({ UUID(uuidString: String($0.1.dropFirst(3))) }) else {
            return Self.pgError(400, "PGRST100", "missing id filter")
        }
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table profiles") }
        let writable: Set<String> = ["handle", "display_name", "bio", "photo_url", "home_gym", "climbing_since", "favorite_style", "is_public"]
        if let column = body.columns.first(where: { !writable.contains($0) }) {
            return Self.pgError(403, "42501", "permission denied for table profiles (\(column))")
        }
        guard me == id, var profile = profilesById[id] else { return Self.json(200, [ProfileRow]()) }
        let text = body.text
        if case .some(.some(let handle)) = text("handle") {
            if profilesById.values.contains(where: { $0.id != id && $0.handle.lowercased() == handle.lowercased() }) {
                return Self.pgError(409, "23505", "duplicate key value violates unique constraint \"profiles_handle_lower_key\"")
            }
            profile.handle = handle
        }
        if let v = text("display_name") { profile.displayName = v }
        if let v = text("bio") { profile.bio = v }
        if let v = text("photo_url") { profile.avatarURL = v }
        if let v = text("home_gym") { profile.homeGym = v }
        if let v = text("favorite_style") { profile.favoriteStyle = v }
        if let v = text("climbing_since") { profile.climbingSince = v.flatMap(CalendarDay.init) }
        let turnsPublic = body.flag("is_public") == true && !profile.isPublic
        if let v = body.flag("is_public") { profile.isPublic = v }
        profile.updatedAt = UnixMicroseconds.date(tick())
        profilesById[id] = profile
        // profiles_public_approves_requests: an AFTER trigger, so the returned row's counts are
        // those from before the approvals, as PostgREST returns them.
        if turnsPublic { approveAllPending(target: id) }
        return Self.json(200, [Self.row(profile)])
    }

    /// `profile_private` as migration 20250301001000 guards it: `authenticated` only (anon has no
    /// grant), the caller's own row only (`profile_private_read_own`).
    func readOwnerDetails(_ query: [(String, String)], caller: Caller) -> Response {
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table profile_private") }
        var wanted: UUID?
        for (name, value) in query {
            switch name {
            case "select": break  // the stores select `OwnerDetailsRow.columns`, which is the row
            case "id":
                guard value.hasPrefix("eq."), let id = UUID(uuidString: String(value.dropFirst(3))) else {
                    return Self.pgError(400, "PGRST100", "unsupported filter \(value)")
                }
                wanted = id
            default: return Self.pgError(400, "42703", "column profile_private.\(name) does not exist")
            }
        }
        guard wanted == nil || wanted == me, profilesById[me] != nil else { return Self.rows([OwnerDetailsRow]()) }
        let details = ownerDetailsById[me] ?? ProfileOwnerDetails()
        return Self.rows([OwnerDetailsRow(
            home_zip: details.homeZIP, preferred_grade_scale_boulder: details.preferredGradeScaleBoulder,
            preferred_grade_scale_route: details.preferredGradeScaleRoute,
            premium_expires_at: details.premium.map { Self.timestamp(UnixMicroseconds.from($0.expiresAt)) },
            premium_product_id: details.premium?.productId, premium_original_transaction_id: details.premium?.originalTransactionId)])
    }

    /// The owner's update of `profile_private`: the column grants (ZIP and scales only), the
    /// ZIP format check, the own-row policy.
    func patchOwnerDetails(_ query: [(String, String)], body: FakeColumnUpdates, caller: Caller) -> Response {
        guard let id = query.first(where: { $0.0 == "id" }).flatMap({ UUID(uuidString: String($0.1.dropFirst(3))) }) else {
            return Self.pgError(400, "PGRST100", "missing id filter")
        }
        guard case .user(let me) = caller else { return Self.pgError(401, "42501", "permission denied for table profile_private") }
        let writable: Set<String> = ["home_zip", "preferred_grade_scale_boulder", "preferred_grade_scale_route"]
        if let column = body.columns.first(where: { !writable.contains($0) }) {
            return Self.pgError(403, "42501", "permission denied for table profile_private (\(column))")
        }
        guard me == id, profilesById[id] != nil else { return Self.json(200, [IdRow]()) }
        var details = ownerDetailsById[id] ?? ProfileOwnerDetails()
        let text = body.text
        if let zip = text("home_zip") {
            if let zip, !HomeZIPRule.isValid(zip) {
                return Self.pgError(400, "23514", "new row for relation \"profile_private\" violates check constraint \"profile_private_home_zip_format\"")
            }
            details.homeZIP = zip
        }
        if let v = text("preferred_grade_scale_boulder") { details.preferredGradeScaleBoulder = v }
        if let v = text("preferred_grade_scale_route") { details.preferredGradeScaleRoute = v }
        ownerDetailsById[id] = details
        return Self.json(200, [IdRow(id: id.lowercased)])
    }

    func tick() -> Int64 {
        nowMicroseconds += 1_000
        return nowMicroseconds
    }

    func search(_ body: SearchArguments?, caller: Caller) -> Response {
        guard let body else { return Self.pgError(400, "PGRST202", "missing pattern") }
        let pattern = body.pattern
        let afterHandle = body.after_handle ?? ""
        let afterId = body.after_id ?? "00000000-0000-0000-0000-000000000000"
        let limit = body.page_size
        let hits = profilesById.values
            .filter { $0.isPublic && visible($0, caller) && (Self.like($0.handle, pattern) || $0.displayName.map { Self.like($0, pattern) } == true) }
            .filter { ($0.handle.lowercased(), $0.id.lowercased) > (afterHandle, afterId) }
            .sorted { ($0.handle.lowercased(), $0.id.lowercased) < ($1.handle.lowercased(), $1.id.lowercased) }
        return Self.rows(hits.prefix(limit).map(Self.row))
    }

    /// `search_profiles_ranked`: as `search_profiles`, ordered and keyed by (rank, lower-case
    /// handle, id), the rank computed as the migration does (exact, prefix, other).
    func rankedSearch(_ body: RankedSearchArguments?, caller: Caller) -> Response {
        guard let body else { return Self.pgError(400, "PGRST202", "missing pattern") }
        let after = (body.after_rank ?? -1, body.after_handle ?? "", body.after_id ?? "00000000-0000-0000-0000-000000000000")
        func key(_ p: Profile) -> (Int, String, String) {
            let handle = p.handle.lowercased()
            return (SearchRank(handleKey: handle, queryKey: body.query_key).rawValue, handle, p.id.lowercased)
        }
        let hits = profilesById.values
            .filter { $0.isPublic && visible($0, caller) && (Self.like($0.handle, body.pattern) || $0.displayName.map { Self.like($0, body.pattern) } == true) }
            .filter { key($0) > after }
            .sorted { key($0) < key($1) }
        return Self.rows(hits.prefix(max(0, min(body.page_size, 101))).map(Self.row))
    }

    /// Case-insensitive SQL LIKE with `\` as the escape character.
    static func like(_ text: String, _ pattern: String) -> Bool {
        enum Token { case any, one, char(Character) }
        var tokens: [Token] = [], escape = false
        for ch in pattern.lowercased() {
            if escape { tokens.append(.char(ch)); escape = false }
            else if ch == "\\" { escape = true }
            else if ch == "%" { tokens.append(.any) }
            else if ch == "_" { tokens.append(.one) }
            else { tokens.append(.char(ch)) }
        }
        let chars = Array(text.lowercased())
        func match(_ t: Int, _ c: Int) -> Bool {
            guard t < tokens.count else { return c == chars.count }
            switch tokens[t] {
            case .any: return (c...chars.count).contains { match(t + 1, $0) }
            case .one: return c < chars.count && match(t + 1, c + 1)
            case .char(let ch): return c < chars.count && chars[c] == ch && match(t + 1, c + 1)
            }
        }
        return match(0, 0)
    }
}
