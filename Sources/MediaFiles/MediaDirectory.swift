import Foundation
import SocialDomain

/// Media files under `<root>/<bucket>/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/<bucket>/<userId>/<file>` (`/avatars/...`, `/stories/...`): the object store
/// of every store without one of its own (the embedded store; the PostgreSQL store without
/// `SUPABASE_URL`), emulating Storage's buckets and their owner-only policies.
///
/// Store-neutral on purpose: a store that keeps files in a folder uses this rather than another
/// store's, and a new ``MediaKind`` gets its folder and route with no code here. Paths are only
/// ever ones the domain wrote (``MediaPath`` parses strictly), and a viewer writes and deletes
/// only in their own folder.
///
/// ```swift
/// let files = MediaDirectory(root: dataFolder, publicBaseURL: "http://127.0.0.1:8080")
/// let url = try await files.putMedia(bytes, at: path, viewer: viewer)  // http://127.0.0.1:8080/avatars/<uid>/<file>
/// ```
public struct MediaDirectory: MediaStore, MediaFileSource {
    /// The folder holding one folder per kind (`avatars/`, `stories/`).
    public let root: URL
    /// Prefix of the public URLs: `<publicBaseURL>/<bucket>/<path>`.
    public let publicBaseURL: String

    public init(root: URL, publicBaseURL: String) {
        self.root = root
        self.publicBaseURL = publicBaseURL
    }

    /// The folder of one kind's files (`<root>/avatars`).
    public func folder(for kind: MediaKind) -> URL { root.appendingPathComponent(kind.bucket, isDirectory: true) }

    /// The public URL of a path.
    public func publicURL(for path: MediaPath) -> String { "\(publicBaseURL)/\(path.kind.bucket)/\(path)" }

    /// The file behind a request path (the part after `/<bucket>/`), or nil when the path is not
    /// one this directory writes (so `..` or other names can never reach the file system).
    public func file(_ kind: MediaKind, forRequestPath requestPath: String) -> URL? {
        MediaPath(parsing: requestPath, kind: kind).map(file(at:))
    }

    /// - Throws: `FORBIDDEN` (``DomainError/storageNotAuthorized``) when the viewer does not own
    ///   the path; file system errors.
    public func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String {
        guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
        let file = file(at: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file, options: .atomic)
        return publicURL(for: path)
    }

    /// - Throws: `FORBIDDEN` (``DomainError/storageNotAuthorized``) when the viewer does not own
    ///   the path; file system errors. A missing file is not an error.
    public func deleteMedia(at path: MediaPath, viewer: Viewer) async throws {
        guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
        try remove(path)
    }

    /// Removes a file whatever its owner: the store's own clean-up (expired stories).
    public func remove(_ path: MediaPath) throws {
        let file = file(at: path)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    public func storedMedia(_ kind: MediaKind, atRequestPath path: String) async -> StoredMedia? {
        guard let media = MediaPath(parsing: path, kind: kind) else { return nil }
        return FileManager.default.contents(atPath: file(at: media).path)
            .map { StoredMedia(bytes: $0, contentType: media.format.contentType) }
    }

    /// Removes every file of `kind` written before `cutoff` (its name carries its time): the
    /// clean-up for stores whose story rows expire elsewhere (PostgreSQL), run by the server's
    /// housekeeping.
    /// - Returns: how many files went.
    @discardableResult
    public func purgeFiles(_ kind: MediaKind, writtenBefore cutoff: Date) -> Int {
        let limit = Int64(cutoff.timeIntervalSince1970)
        let manager = FileManager.default
        let folder = folder(for: kind)
        var removed = 0
        for owner in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(owner).path)) ?? [] {
                guard let path = MediaPath(parsing: "\(owner)/\(name)", kind: kind), path.unixTime < limit else { continue }
                if (try? remove(path)) != nil { removed += 1 }
            }
        }
        return removed
    }

    func file(at path: MediaPath) -> URL { folder(for: path.kind).appendingPathComponent(path.description) }
}
