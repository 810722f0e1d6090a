/// The hash Apollo's persisted queries and trusted-document manifests name a document by:
/// lower-case hex SHA-256 of its UTF-8 text.
public enum DocumentHash {
    /// The hash of `text`.
    public static func of(_ text: String) -> String { Hex.sha256(text) }

    /// Whether `text` has the shape of a hash (64 hex digits, either case).
    public static func isWellFormed(_ text: String) -> Bool { Hex.isSHA256(text) }
}
