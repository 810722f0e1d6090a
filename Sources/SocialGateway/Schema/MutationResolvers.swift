import Foundation
import GraphQLEngine
import SocialDomain

/// `Mutation`: each field runs one use case; the request's loaders then learn the new state.
enum MutationResolvers {
    static func bind(_ b: inout SchemaBinder) {
        b.bind("Mutation", "updateProfile") { info in
            let request = try info.request
            let input = try profileInput(info.arguments["input"]?.objectValue ?? [:])
            let profile = try await storeCall(request.logger) {
                try await UpdateProfile(profiles: request.stores.profiles).execute(input: input, viewer: request.viewer)
            }
            request.remember(profile)
            request.changedTags.record(CacheTags.profile(profile.id))
            // Searches match handles and names: other fields change the profile's own answers
            // (its `Profile:` tag) and leave every search's results as they were.
            if !input.handle.isKeep || !input.displayName.isKeep || !input.isPublic.isKeep {
                request.changedTags.record(CacheTags.search)
            }
            if !input.isPublic.isKeep { request.changedTags.record(CacheTags.followLists) }
            return profile
        }
        b.bind("Mutation", "toggleFollow") { info in try await changeFollow(.toggle, info) }
        b.bind("Mutation", "follow") { info in try await changeFollow(.follow, info) }
        b.bind("Mutation", "unfollow") { info in try await changeFollow(.unfollow, info) }
        b.bind("Mutation", "deleteAvatar") { info in try await deleteAvatar(info) }
        b.bind("Mutation", "uploadAvatar") { info in
            let request = try info.request
            let bytes = try uploadedBytes(info)
            let upload = try await storeCall(request.logger) {
                let logger = request.logger
                return try await UploadAvatar(
                    profiles: request.stores.profiles, media: request.stores.media,
                    onCleanupFailure: { path, error in
                        logger.warning("replaced avatar not deleted", metadata: ["path": "\(path)", "error": "\(error)"])
                    }
                ).execute(bytes: bytes, viewer: request.viewer)
            }
            request.remember(upload.profile)
            request.changedTags.record(CacheTags.profile(upload.profile.id))
            return AvatarPayloadValue(url: upload.publicURL, profile: upload.profile)
        }
    }

    /// The bytes of the `file` argument: a file of this multipart request, read back from its spool.
    /// - Throws: `BAD_USER_INPUT` when `file` names no file of the request, or one another field
    ///   of the request already used (``RequestBudget/useFile(_:)``).
    static func uploadedBytes(_ info: ResolveInfo) throws -> Data {
        try uploadedBytes(info.arguments["file"], field: "file", try info.request)
    }

    /// The bytes of the file an `Upload` value names (`{"$upload": key}`), taken for one field.
    /// - Throws: `BAD_USER_INPUT` on `field` when it names no file of the request, or one another
    ///   field already used; `BACKEND_UNAVAILABLE` when its spool cannot be read back.
    static func uploadedBytes(_ value: JSONValue?, field: String, _ request: RequestContext) throws -> Data {
        guard let key = value?[GatewayScalars.uploadKey]?.stringValue, let file = request.files[key] else {
            throw DomainError.badUserInput("\(field) must be a file sent as a multipart request", field: field)
        }
        try request.budget.useFile(key)
        do {
            return try file.readBytes()
        } catch {
            request.logger.error("uploaded file could not be read back", metadata: ["error": "\(error)"])
            throw DomainError.backendUnavailable
        }
    }

    /// `deleteAvatar`: the profile lets go of its avatar, then the file goes.
    static func deleteAvatar(_ info: ResolveInfo) async throws -> Profile {
        let request = try info.request
        let logger = request.logger
        let profile = try await storeCall(logger) {
            try await DeleteAvatar(
                profiles: request.stores.profiles, media: request.stores.media,
                onCleanupFailure: { path, error in
                    logger.warning("removed avatar not deleted", metadata: ["path": "\(path)", "error": "\(error)"])
                }
            ).execute(viewer: request.viewer)
        }
        request.remember(profile)
        request.changedTags.record(CacheTags.profile(profile.id))
        return profile
    }

    static func changeFollow(_ action: FollowAction, _ info: ResolveInfo) async throws -> FollowPayloadValue {
        let request = try info.request
        let id = try parseProfileID(info.arguments.string("profileId") ?? "", field: "profileId")
        let outcome = try await storeCall(request.logger) { () async throws -> FollowOutcome in
            switch action {
            case .toggle:
                try await ToggleFollow(follows: request.stores.follows, limits: request.followLimits).execute(profileId: id, viewer: request.viewer)
            case .follow:
                try await FollowProfile(follows: request.stores.follows, limits: request.followLimits).execute(profileId: id, viewer: request.viewer)
            case .unfollow:
                try await UnfollowProfile(follows: request.stores.follows, limits: request.followLimits).execute(profileId: id, viewer: request.viewer)
            }
        }
        // The followee is absent only when it is hidden from the viewer, which a store allows for
        // removing a follow alone.
        guard let follower = outcome.follower, outcome.followee != nil || !outcome.isFollowing else {
            throw DomainError.profileNotFound
        }
        request.forgetFollows()
        if let followee = outcome.followee { request.remember(followee) }
        request.remember(follower)
        request.changedTags.record([
            CacheTags.profile(id), CacheTags.profile(follower.id), CacheTags.followers(id), CacheTags.following(follower.id),
        ])
        if outcome.changed && !outcome.isFollowing && outcome.followee?.access == .card {
            // a request made or cancelled: the owner's list of requests and the requester's changed
            request.changedTags.record([CacheTags.followRequests(id), CacheTags.sentFollowRequests(follower.id)])
        }
        if outcome.changed && outcome.isFollowing {
            request.activities.record(Activity(kind: .followed, actor: follower.id, subject: id, at: outcome.at ?? ActivityLog.now))
        }
        return FollowPayloadValue(
            following: outcome.isFollowing, profile: outcome.followee, viewer: follower, requestStatus: outcome.requestStatus)
    }

    /// UpdateProfileInput -> the domain's input: absent keeps, null clears, a value sets.
    static func profileInput(_ object: JSONObject) throws -> ProfileUpdateInput {
        var input = ProfileUpdateInput()
        func text(_ key: String) -> FieldUpdate<String> {
            guard let value = object[key] else { return .keep }
            return value.stringValue.map(FieldUpdate.set) ?? .clear
        }
        input.handle = text("handle")
        input.displayName = text("displayName")
        input.bio = text("bio")
        input.homeGym = text("homeGym")
        input.favoriteStyle = text("favoriteStyle")
        input.homeZIP = text("homeZIP")
        input.preferredGradeScaleBoulder = text("preferredGradeScaleBoulder")
        input.preferredGradeScaleRoute = text("preferredGradeScaleRoute")
        if let value = object["climbingSince"] {
            if let day = value.stringValue.flatMap(CalendarDay.init) { input.climbingSince = .set(day) } else { input.climbingSince = .clear }
        }
        if let value = object["isPublic"] {
            input.isPublic = value.boolValue.map(FieldUpdate.set) ?? .clear
        }
        return input
    }
}

/// The parent value of `UploadAvatarPayload`.
struct AvatarPayloadValue: Sendable {
    let url: String
    let profile: Profile
}
