/// Each kind of media's limits and refusals, worded by the domain: the use cases check them, and
/// a store whose backend refuses a file (Supabase Storage's 413 and 415) reports the same error.
extension MediaKind {
    /// The largest file of this kind.
    public var maxBytes: Int {
        switch self {
        case .avatar: UploadAvatar.maxBytes
        case .story: CreateStory.maxBytes
        case .postImage: CreatePost.maxImageBytes
        }
    }

    /// A file of this kind over ``maxBytes``: "File exceeds maximum size of 5MB" (or 15MB).
    public var fileTooLarge: DomainError { .fileTooLarge(maxBytes: maxBytes) }

    /// A file whose content is none of this kind's ``formats``.
    public var unsupportedFile: DomainError {
        switch self {
        case .avatar, .postImage: .invalidImage
        case .story: .unsupportedStoryMedia
        }
    }
}
