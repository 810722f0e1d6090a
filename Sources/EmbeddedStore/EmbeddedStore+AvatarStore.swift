import Foundation
import SocialDomain

/// Avatars as files under `<data>/avatars/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/avatars/<userId>/<file>`.
extension EmbeddedStore: AvatarStore {
    /// The folder holding the `avatars` objects.
    public var avatarsDirectory: URL { dataDirectory.appendingPathComponent("avatars", isDirectory: true) }

    /// The public URL of an avatar path.
    public func publicURL(for path: AvatarPath) -> String {
        "\(options.publicBaseURL)/avatars/\(path)"
    }

    /// The file behind a request path (the part after `/avatars/`), or nil when the path is not
    /// one this store writes (so `..` or other names can never reach the file system).
    public func avatarFile(forRequestPath requestPath: String) -> URL? {
        guard let path = AvatarPath(parsing: requestPath) else { return nil }
        return avatarsDirectory.appendingPathComponent(path.description)
    }

    /// Emulates the `avatars owner insert` policy: only into the viewer's own folder.
    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        try await call(.putAvatar) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            let file = avatarsDirectory.appendingPathComponent(path.description)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: file, options: .atomic)
            return publicURL(for: path)
        }
    }

    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        try await call(.deleteAvatar) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            let file = avatarsDirectory.appendingPathComponent(path.description)
            if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        }
    }
}

extension AvatarPath {
    /// Parses `uuid/digits_8hex.jpg|png` strictly (lower-case uuid, as written).
    init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let owner = UUID(uuidString: String(parts[0])), owner.lowercased == parts[0]
        else { return nil }
        let file = parts[1]
        guard let dot = file.lastIndex(of: "."), let underscore = file.firstIndex(of: "_"), underscore < dot,
              let unixTime = Int64(file[..<underscore]), String(unixTime) == file[..<underscore]
        else { return nil }
        let suffix = String(file[file.index(after: underscore)..<dot])
        guard suffix.count == 8, suffix.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        let format: ImageFormat
        switch file[file.index(after: dot)...] {
        case "jpg": format = .jpeg
        case "png": format = .png
        default: return nil
        }
        self.init(owner: owner, unixTime: unixTime, suffix: suffix, format: format)
    }
}
