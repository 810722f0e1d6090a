import Foundation
import SocialDomain

/// Avatars and story files in their public Storage buckets (`avatars`, `stories`; see
/// ``SupabaseConfiguration/bucket(for:)``), at `{lower-case uid}/{unix}_{8 hex}.{ext}`. Each put
/// and delete is logged and counted as the port operation of its kind (`putAvatar`,
/// `deleteStoryMedia`...).
extension SupabaseStore: MediaStore {
    /// `POST /storage/v1/object/<bucket>/<path>` with the raw bytes, the real content type,
    /// `Cache-Control` and `x-upsert: true`; returns the public URL (built locally).
    /// Only the owner's folder, as the bucket policies require (checked first, no request).
    public func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String {
        let operation = Self.operation("put", path.kind)
        return try await call(operation) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await putObject(
                bytes, bucket: configuration.bucket(for: path.kind), path: path.description,
                contentType: path.format.contentType, media: path.kind, viewer: viewer, operation: operation)
            return publicURL(for: path)
        }
    }

    /// `DELETE /storage/v1/object/<bucket>/<path>`; "not found" (Storage's HTTP 400 with
    /// `statusCode "404"`) counts as deleted.
    public func deleteMedia(at path: MediaPath, viewer: Viewer) async throws {
        let operation = Self.operation("delete", path.kind)
        try await call(operation) {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await deleteObject(
                bucket: configuration.bucket(for: path.kind), path: path.description, viewer: viewer, operation: operation)
        }
    }

    /// The public URL of a file: `<url>/storage/v1/object/public/<bucket>/<path>`.
    public func publicURL(for path: MediaPath) -> String {
        "\(configuration.url.absoluteString)/storage/v1/object/public/\(configuration.bucket(for: path.kind))/\(path)"
    }

    /// The operation's name in logs and call counts: `putAvatar`, `deleteStoryMedia`..., the names
    /// they had when each kind had its own port.
    static func operation(_ verb: String, _ kind: MediaKind) -> String {
        switch kind {
        case .avatar: verb + "Avatar"
        case .story: verb + "StoryMedia"
        case .postImage: verb + "PostImage"
        }
    }

    /// `POST /storage/v1/object/<bucket>/<path>` with the raw bytes, the real content type,
    /// `Cache-Control` and `x-upsert: true`.
    func putObject(
        _ bytes: Data, bucket: String, path: String, contentType: String, media: MediaKind, viewer: Viewer,
        operation: String
    ) async throws {
        let request = SupabaseRequest(
            method: .post, service: .storage, path: objectPath(bucket: bucket, path),
            headers: [("Content-Type", contentType), ("Cache-Control", configuration.avatarCacheControl), ("x-upsert", "true")],
            body: bytes, idempotent: false, operation: operation)
        let response = try await client.send(request, viewer: viewer)
        guard response.isSuccess else {
            let error = SupabaseErrorMapper.storage(response, media: media) ?? .backendUnavailable
            logUpstream(request, response, as: error)
            throw error
        }
    }

    /// `DELETE /storage/v1/object/<bucket>/<path>`; not found counts as deleted.
    func deleteObject(bucket: String, path: String, viewer: Viewer, operation: String) async throws {
        let request = SupabaseRequest(
            method: .delete, service: .storage, path: objectPath(bucket: bucket, path), idempotent: true, operation: operation)
        let response = try await client.send(request, viewer: viewer)
        guard response.isSuccess else {
            guard let error = SupabaseErrorMapper.storage(response) else { return }
            logUpstream(request, response, as: error)
            throw error
        }
    }

    /// The object's API path; the path's segments are lower-case hex, digits and `_`, safe
    /// as they are.
    func objectPath(bucket: String, _ path: String) -> String {
        "/storage/v1/object/\(PostgRESTQuery.percentEncode(bucket))/\(path)"
    }
}
