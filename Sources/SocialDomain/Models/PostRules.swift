import Foundation

/// What a post and a comment may hold. The seeds name the fields (seed 004: content required,
/// optional image URLs) but no limits; these are the gateway's, documented in the schema:
///
/// - content: trimmed, 1 to 2,000 characters (grapheme clusters, as bios are counted);
/// - image URLs: at most 4, each an absolute `http` or `https` URL with a host, at most 2,048
///   bytes (the stores link to images; uploads go through `uploadAvatar`/`createStory`);
/// - a comment: trimmed, 1 to 500 characters.
public enum PostRules {
    public static let maxContentLength = 2_000
    public static let maxImages = 4
    public static let maxImageURLBytes = 2_048
    public static let maxCommentLength = 500

    /// The trimmed content.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `content`.
    public static func content(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DomainError.badUserInput("Post content cannot be empty", field: "content") }
        guard !trimmed.unicodeScalars.contains("\0") else {
            throw DomainError.badUserInput("Post content cannot contain NUL characters", field: "content")
        }
        guard trimmed.utf8.count <= maxContentLength * UpdateProfile.maxBytesPerCharacter, trimmed.count <= maxContentLength else {
            throw DomainError.badUserInput("Post content must be \(maxContentLength) characters or less", field: "content")
        }
        return trimmed
    }

    /// The URLs as given, each checked.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `imageURLs`.
    public static func imageURLs(_ urls: [String]) throws -> [String] {
        guard urls.count <= maxImages else {
            throw DomainError.badUserInput("A post can have at most \(maxImages) images", field: "imageURLs")
        }
        for url in urls {
            guard url.utf8.count <= maxImageURLBytes, let components = URLComponents(string: url),
                  let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = components.host, !host.isEmpty, url.allSatisfy({ !$0.isWhitespace })
            else {
                throw DomainError.badUserInput(
                    "Image URLs must be http or https URLs of at most \(maxImageURLBytes) bytes", field: "imageURLs")
            }
        }
        return urls
    }

    /// The trimmed comment.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` on `content`.
    public static func comment(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw DomainError.badUserInput("Comment cannot be empty", field: "content") }
        guard !trimmed.unicodeScalars.contains("\0") else {
            throw DomainError.badUserInput("Comment cannot contain NUL characters", field: "content")
        }
        guard trimmed.utf8.count <= maxCommentLength * UpdateProfile.maxBytesPerCharacter, trimmed.count <= maxCommentLength else {
            throw DomainError.badUserInput("Comment must be \(maxCommentLength) characters or less", field: "content")
        }
        return trimmed
    }
}

extension DomainError {
    public static let postNotFound = DomainError(.notFound, "Post not found")
    public static let commentNotFound = DomainError(.notFound, "Comment not found")
    public static let notPostAuthor = DomainError(.forbidden, "You can only change your own posts")
    public static let notCommentDeleter = DomainError(
        .forbidden, "You can only delete your own comments or comments on your own posts")
}
