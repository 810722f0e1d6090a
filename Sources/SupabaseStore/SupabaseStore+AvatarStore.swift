import Foundation
import SocialDomain

/// Avatars in the public `avatars` bucket, at `{lower-case uid}/{unix}_{8 hex}.{jpg|png}`.
extension SupabaseStore: AvatarStore {
    /// `POST /storage/v1/object/avatars/<path>` with the raw bytes, the real content type,
    /// `Cache-Control` and `x-upsert: true`; returns the public URL (built locally).
    /// Only the owner's folder, as the bucket policies require (checked first, no request).
    public func putAvatar(_ bytes: Data, at path: AvatarPath, viewer: Viewer) async throws -> String {
        try await call("putAvatar") {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await putObject(
                bytes, bucket: configuration.avatarBucket, path: path.description, contentType: path.format.contentType,
                viewer: viewer, operation: "putAvatar")
            return publicURL(for: path)
        }
    }

    /// `DELETE /storage/v1/object/avatars/<path>`; "not found" (Storage's HTTP 400 with
    /// `statusCode "404"`) counts as deleted.
    public func deleteAvatar(at path: AvatarPath, viewer: Viewer) async throws {
        try await call("deleteAvatar") {
            guard viewer.userId == path.owner else { throw DomainError.storageNotAuthorized }
            try await deleteObject(bucket: configuration.avatarBucket, path: path.description, viewer: viewer, operation: "deleteAvatar")
        }
    }

    /// `POST /storage/v1/object/<bucket>/<path>` with the raw bytes, the real content type,
    /// `Cache-Control` and `x-upsert: true`.
    func putObject(
        _ bytes: Data, bucket: String, path: String, contentType: String, media: StoredMedia = .avatar, viewer: Viewer,
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

    func objectPath(_ path: AvatarPath) -> String { objectPath(bucket: configuration.avatarBucket, path.description) }
}
