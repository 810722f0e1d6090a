/// Bytes as people read them in a limit message: "5MB", "1MB", "512KB", "300 bytes".
///
/// Limit messages are derived from the constants they describe (``UploadAvatar/maxBytes``,
/// ``CreateStory/maxBytes``, the HTTP layer's body and file limits) through this one formatter,
/// so a message cannot go on saying "5MB" after the limit moves. Seed 000's wording is
/// "\(maxSizeMB)MB": whole mebibytes, no space.
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    public let bytes: Int
    public init(_ bytes: Int) { self.bytes = bytes }
    public var description: String {
        if bytes >= 1024 * 1024, bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024))MB" }
        if bytes >= 1024, bytes % 1024 == 0 { return "\(bytes / 1024)KB" }
        return "\(bytes) bytes"
    }
}
