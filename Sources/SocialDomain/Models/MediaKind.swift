import Foundation

/// What an uploaded file is for: a profile's avatar, a story, or an image of a post. Every store keeps each kind in
/// a bucket (or folder, or route) of its own, named by ``bucket``, under the same path shape
/// (``MediaPath``) and the same owner-only rule; what differs per kind is only which formats it
/// takes.
///
/// The next kind of media (a post's images, a chat attachment) is one case here: the stores, the
/// file directory and the HTTP route follow from ``bucket`` and ``formats``.
///
/// ```swift
/// let path = MediaPath(kind: .story, owner: me, unixTime: 1_740_912_672, suffix: "3f9c1a2b", format: .mp4)
/// path.kind.bucket   // "stories"
/// ```
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    case avatar, story, postImage

    /// The name of the kind's bucket in Supabase Storage, and of its folder and route
    /// (`/avatars/...`, `/stories/...`) where a store keeps the files itself.
    public var bucket: String {
        switch self {
        case .avatar: "avatars"
        case .story: "stories"
        case .postImage: "post-images"
        }
    }

    /// The formats a file of this kind may have: avatars and post images are images, stories
    /// images or videos.
    public var formats: Set<MediaFormat> {
        switch self {
        case .avatar, .postImage: [.jpeg, .png]
        case .story: [.jpeg, .png, .mp4, .quicktime]
        }
    }
}
