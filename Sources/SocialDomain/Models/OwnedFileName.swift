import Foundation

/// The one shape of every file name the stores write into a bucket or a folder:
/// `{owner uuid, lower-case}/{unixTime}_{8 lower-case hex}.{extension}` (avatars, story files).
/// Parsed strictly, so `..` or any name the gateway did not write never reaches a file system or
/// a bucket.
struct OwnedFileName {
    var owner: UUID
    var unixTime: Int64
    var suffix: String
    var fileExtension: Substring

    init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let owner = UUID(parsing: String(parts[0])), owner.lowercased == parts[0] else { return nil }
        let file = parts[1]
        guard let dot = file.lastIndex(of: "."), let underscore = file.firstIndex(of: "_"), underscore < dot,
              let unixTime = Int64(file[..<underscore]), String(unixTime) == file[..<underscore]
        else { return nil }
        let suffix = String(file[file.index(after: underscore)..<dot])
        guard suffix.count == 8, suffix.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        self.owner = owner
        self.unixTime = unixTime
        self.suffix = suffix
        fileExtension = file[file.index(after: dot)...]
    }
}
