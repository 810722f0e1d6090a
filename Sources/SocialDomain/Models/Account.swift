import Foundation

/// Video playback quality (seed 002 `VideoQuality`; default ``auto``).
public enum VideoQuality: String, Sendable, Hashable, CaseIterable {
    case auto, high, medium, low
}

/// The signed-in user's settings (seed 002 `VideoPreferences`): stored in the identity's
/// `user_metadata` (`video_quality`, `autoplay`) on Supabase, in the account row here.
public struct AccountSettings: Sendable, Hashable {
    public var videoQuality: VideoQuality
    public var autoplay: Bool
    /// Seed 002's defaults: `.auto`, autoplay on.
    public init(videoQuality: VideoQuality = .auto, autoplay: Bool = true) {
        self.videoQuality = videoQuality
        self.autoplay = autoplay
    }
}

/// Changes to the settings: nil keeps a field.
public struct AccountSettingsChanges: Sendable, Hashable {
    public var videoQuality: VideoQuality?
    public var autoplay: Bool?
    public init(videoQuality: VideoQuality? = nil, autoplay: Bool? = nil) {
        self.videoQuality = videoQuality
        self.autoplay = autoplay
    }
}

/// The viewer's account (seed 002 `AccountInfo`): who they are to the identity provider.
public struct Account: Sendable, Hashable {
    public var id: UUID
    public var email: String
    /// The `display_name` the account holds, if any (see ``displayName``).
    public var storedDisplayName: String?
    public var createdAt: Date
    public var isVerified: Bool
    public var settings: AccountSettings
    /// When the account last signed in (seed 002 `lastLoginAt`): a password sign-in, a sign-up
    /// or a password reset, each of which starts a session; a refresh is none. Nil before the
    /// first. Supabase: GoTrue's `last_sign_in_at`, which only GoTrue writes (the seed reads
    /// `user_metadata.last_login_at`, which the user could write themselves).
    public var lastLoginAt: Date?

    public init(
        id: UUID, email: String, storedDisplayName: String? = nil, createdAt: Date, isVerified: Bool, settings: AccountSettings,
        lastLoginAt: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.storedDisplayName = storedDisplayName
        self.createdAt = createdAt
        self.isVerified = isVerified
        self.settings = settings
        self.lastLoginAt = lastLoginAt
    }

    /// Seed 002: the stored display name, else the email's local part.
    public var displayName: String {
        if let stored = storedDisplayName?.trimmingCharacters(in: .whitespaces), !stored.isEmpty { return stored }
        return String(email.prefix { $0 != "@" })
    }
}

/// A signed-in session: the access token the gateway verifies (a JWT) and the refresh token that
/// gets the next one (single use).
public struct AuthSession: Sendable, Hashable {
    public var accessToken: String
    public var expiresAt: Date
    public var refreshToken: String
    public init(accessToken: String, expiresAt: Date, refreshToken: String) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }
}

/// What signing up or in gives: the session (nil when the email must be confirmed first) and
/// the user's id.
public struct AuthResult: Sendable, Hashable {
    public var userId: UUID
    public var session: AuthSession?
    public init(userId: UUID, session: AuthSession?) {
        self.userId = userId
        self.session = session
    }
}
