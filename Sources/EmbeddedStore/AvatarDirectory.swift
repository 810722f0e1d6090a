import Foundation
import SocialDomain

/// Files under `<directory>/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/<route>/<userId>/<file>`: the bucket emulation behind ``AvatarDirectory`` and
/// ``StoryDirectory``. Paths are only ever ones the domain wrote (parsed strictly by the caller),
/// and a viewer writes and deletes only in their own folder (the buckets' owner-only policies).
struct PublicFiles: Sendable {
    let directory: URL
    let publicBaseURL: String
    let route: String

    func url(_ path: String) -> String { "\(publicBaseURL)/\(route)/\(path)" }

    func put(_ bytes: Data, at path: String, owner: UUID, viewer: Viewer) throws -> String {
        guard viewer.userId == owner else { throw DomainError.storageNotAuthorized }
        let file = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: file, options: .atomic)
        return url(path)
    }

    func delete(at path: String, owner: UUID, viewer: Viewer) throws {
        guard viewer.userId == owner else { throw DomainError.storageNotAuthorized }
        try remove(path)
    }

    /// Removes a file whatever its owner (the store's own clean-up of expired stories).
    func remove(_ path: String) throws {
        let file = directory.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    func read(_ path: String, contentType: String) -> StoredAvatar? {
        FileManager.default.contents(atPath: directory.appendingPathComponent(path).path)
            .map { StoredAvatar(bytes: $0, contentType: contentType) }
    }
}

/// Avatars as files under `<directory>/<userId>/<file>`, served by the HTTP server at
/// `<publicBaseURL>/avatars/<userId>/<file>`: the embedded store's avatars, and those of any store
/// without an object store of its own (the PostgreSQL store without `SUPABASE_URL`).
public struct AvatarDirectory: AvatarStore, AvatarFileSource {
    let files: PublicFiles
    /// The folder holding the `avatars` objects.
    public var directory: URL { files.directory }

    public init(directory: URL, publicBaseURL: String) {
        files = PublicFiles(directory: directory, publicBaseURL: publicBaseURL, route: "avatars")
    }

    /// The public URL of an avatar path.
    public func publicURL(for path: AvatarPath) -> String { files.url(path.description) }

    /// The file behind a request path (the part after `/avatars/`), or nil when the path is not
    /// one this store writes (so `..` or other names can never reach the file system).
    public func file(forRequestPath requestPath: String) -> URL? {
        AvatarPath(parsing: requestPath).map { directory.appendingPathComponent($0.description) }
    }

    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        try files.put(bytes, at: path.description, owner: path.owner, viewer: viewer)
    }

    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        try files.delete(at: path.description, owner: path.owner, viewer: viewer)
    }

    public func storedAvatar(atRequestPath path: String) async -> StoredAvatar? {
        guard let avatar = AvatarPath(parsing: path) else { return nil }
        return files.read(avatar.description, contentType: avatar.format.contentType)
    }
}

/// Story files under `<directory>/<userId>/<file>`, served at `<publicBaseURL>/stories/...`, for
/// the stores without an object store of their own.
public struct StoryDirectory: StoryMediaStore, StoryFileSource {
    let files: PublicFiles
    public var directory: URL { files.directory }

    public init(directory: URL, publicBaseURL: String) {
        files = PublicFiles(directory: directory, publicBaseURL: publicBaseURL, route: "stories")
    }

    public func putStoryMedia(_ bytes: Data, at path: StoryMediaPath, viewer: Viewer) async throws -> String {
        try files.put(bytes, at: path.description, owner: path.owner, viewer: viewer)
    }

    public func deleteStoryMedia(at path: StoryMediaPath, viewer: Viewer) async throws {
        try files.delete(at: path.description, owner: path.owner, viewer: viewer)
    }

    /// Removes a story's file whatever its owner: the clean-up of expired stories.
    public func removeExpired(_ path: StoryMediaPath) throws { try files.remove(path.description) }

    /// Removes every story file written before `cutoff` (its name carries its time): the clean-up
    /// for stores whose rows expire elsewhere (PostgreSQL), run by the server's housekeeping.
    /// - Returns: how many files went.
    @discardableResult
    public func purgeFiles(writtenBefore cutoff: Date) -> Int {
        let limit = Int64(cutoff.timeIntervalSince1970)
        let manager = FileManager.default
        var removed = 0
        for owner in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: directory.appendingPathComponent(owner).path)) ?? [] {
                guard let path = StoryMediaPath(parsing: "\(owner)/\(name)"), path.unixTime < limit else { continue }
                if (try? files.remove(path.description)) != nil { removed += 1 }
            }
        }
        return removed
    }

    public func storedStoryMedia(atRequestPath path: String) async -> StoredAvatar? {
        guard let media = StoryMediaPath(parsing: path) else { return nil }
        return files.read(media.description, contentType: media.format.contentType)
    }
}
