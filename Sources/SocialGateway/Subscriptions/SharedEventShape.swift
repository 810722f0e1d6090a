import Foundation
import GraphQLLanguage

/// A `feedPosts` subscription whose answer to a post is the same bytes for every subscriber
/// allowed to see the post (issue 53, "Events too"): its event runs once for all of them
/// (``SubscriptionAudience/mayReadPost``), and each subscriber's right to it is checked on its
/// own, from the post's audience read once for the fan-out (``EventAdmission``).
///
/// A subscriber is told a post only when they see its author whole (they are the author, or
/// follow them: ``SocialDomain/SocialRules``), so the post's own columns and its author's columns
/// read the same for each of them. The shape allows exactly those: under `feedPosts`, the post's
/// columns and counters, and under `author` the profile's columns a viewer who sees it whole
/// reads. Nothing that names the viewer or depends on whom they see: no `viewerHasLiked`, no
/// follow flags, no owner-only field, no list (comments, likers, followers: each row is filtered
/// per viewer). No fragments, no directives, no arguments, so that what is checked is what runs
/// (aliases are fine: they rename, they do not change a value). Anything else keeps one
/// execution per viewer.
///
/// ```swift
/// let audience: SubscriptionAudience = SharedEventShape.isShared(operation) ? .mayReadPost : .viewer(id)
/// ```
enum SharedEventShape {
    /// The post's fields whose value is the same for every viewer who may see the post.
    static let postFields: Set<String> = [
        "__typename", "id", "content", "imageURLs", "likeCount", "commentCount", "createdAt", "updatedAt", "author",
    ]
    /// The author's fields whose value is the same for every viewer who sees the profile whole
    /// (and not owner-only: the author reads those, nobody else).
    static let authorFields: Set<String> = [
        "__typename", "id", "handle", "displayName", "bio", "avatarURL", "homeGym", "climbingSince", "favoriteStyle",
        "isPublic", "followerCount", "followingCount", "sendCount", "postCount", "createdAt", "updatedAt",
    ]

    /// Whether `operation` is `subscription { feedPosts { ... } }` with only shared fields.
    static func isShared(_ operation: OperationDefinition) -> Bool {
        guard operation.operation == .subscription, operation.directives.isEmpty,
              operation.selectionSet.selections.count == 1,
              case .field(let root) = operation.selectionSet.selections[0],
              root.name.value == "feedPosts", root.directives.isEmpty, root.arguments.isEmpty,
              let post = root.selectionSet?.selections
        else { return false }
        return only(postFields, in: post) { field in
            guard field.name.value == "author" else { return field.selectionSet == nil }
            guard let author = field.selectionSet?.selections else { return false }
            return only(authorFields, in: author) { $0.selectionSet == nil }
        }
    }

    /// Whether every selection is a field without directives or arguments named in `allowed`,
    /// for which `nested` holds.
    private static func only(_ allowed: Set<String>, in selections: [Selection], nested: (Field) -> Bool) -> Bool {
        for selection in selections {
            guard case .field(let field) = selection, field.directives.isEmpty, field.arguments.isEmpty,
                  allowed.contains(field.name.value), nested(field)
            else { return false }
        }
        return true
    }
}
