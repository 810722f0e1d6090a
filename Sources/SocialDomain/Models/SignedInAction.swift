/// What a signed-out caller tried to do, for the seeds' "You must be logged in to ..." message.
///
/// One list so the words live in the domain only: stores and the SQL name the action by its raw
/// value (a stable code: the SQL functions put `action=<code>` in the error's detail), and the
/// domain words it (``DomainError/unauthenticated(to:)``). Seed 001 fixes "follow users",
/// "search profiles", "upload a photo", "view followers" and "view following"; the others follow
/// their pattern.
public enum SignedInAction: String, Sendable, Hashable, CaseIterable {
    case followUsers = "follow_users"
    case searchProfiles = "search_profiles"
    case syncFollows = "sync_follows"
    case viewFollowers = "view_followers"
    case viewFollowing = "view_following"
    case updateProfile = "update_profile"
    case uploadPhoto = "upload_photo"
    case deletePhoto = "delete_photo"
    case viewFeed = "view_feed"
    case createPosts = "create_posts"
    case editPosts = "edit_posts"
    case deletePosts = "delete_posts"
    case likePosts = "like_posts"
    case comment = "comment"
    case deleteComments = "delete_comments"
    case viewStories = "view_stories"
    case postStories = "post_stories"
    case signOut = "sign_out"
    case viewAccount = "view_account"
    case changeSettings = "change_settings"
    case changePassword = "change_password"
    case subscribe = "subscribe"
    case manageFollowRequests = "manage_follow_requests"
    case blockUsers = "block_users"
    case viewSuggestions = "view_suggestions"
    case viewNotifications = "view_notifications"

    /// The words that complete "You must be logged in to ...".
    public var words: String {
        switch self {
        case .followUsers: "follow users"
        case .searchProfiles: "search profiles"
        case .syncFollows: "sync follows"
        case .viewFollowers: "view followers"
        case .viewFollowing: "view following"
        case .updateProfile: "update your profile"
        case .uploadPhoto: "upload a photo"
        case .deletePhoto: "delete a photo"
        case .viewFeed: "view your feed"
        case .createPosts: "create posts"
        case .editPosts: "edit posts"
        case .deletePosts: "delete posts"
        case .likePosts: "like posts"
        case .comment: "comment"
        case .deleteComments: "delete comments"
        case .viewStories: "view stories"
        case .postStories: "post stories"
        case .signOut: "sign out"
        case .viewAccount: "view your account"
        case .changeSettings: "change your settings"
        case .changePassword: "change your password"
        case .subscribe: "subscribe to live updates"
        case .manageFollowRequests: "manage follow requests"
        case .blockUsers: "block users"
        case .viewSuggestions: "view suggested profiles"
        case .viewNotifications: "view your notifications"
        }
    }
}
