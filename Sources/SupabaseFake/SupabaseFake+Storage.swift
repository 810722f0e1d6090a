import Foundation
import Hummingbird
import PostgresNIO

/// The fake's `/storage/v1/object` side: Storage's wire over the fake's database. An upload or
/// a delete writes its `storage.objects` row as the caller (role and claims, as Storage runs
/// its queries), so the buckets' owner-only policies of the migrations decide, and
/// `create_story` finds the row it checks; the size and type limits are the bucket's row
/// (`storage.buckets`), checked before, as Storage checks them. The bytes stay in memory and
/// are served back at their public URL. Errors keep Storage's habit of answering HTTP 400 with
/// the real status in the body's `statusCode`.
extension SupabaseFake {
    static let objectPrefix = "/storage/v1/object/"
    static let publicAvatarsPrefix = "/storage/v1/object/public/avatars/"
    static let publicStoriesPrefix = "/storage/v1/object/public/stories/"

    /// Where a bucket's bytes live in ``SupabaseFake/objects``: avatars by their path as is,
    /// every other bucket's as `<bucket>/<path>` (``objectKeys()``'s contract).
    static func objectKey(bucket: String, _ path: String) -> String {
        bucket == "avatars" ? path : "\(bucket)/\(path)"
    }

    /// `GET /storage/v1/object/public/<bucket>/<path>`: the bytes with their content type, no key
    /// needed (a public bucket's URL does not consult RLS).
    func publicObject(_ request: RecordedRequest) -> Response {
        let key = request.path.hasPrefix(Self.publicStoriesPrefix)
            ? Self.objectKey(bucket: "stories", String(request.path.dropFirst(Self.publicStoriesPrefix.count)))
            : Self.objectKey(bucket: "avatars", String(request.path.dropFirst(Self.publicAvatarsPrefix.count)))
        guard let object = lock.withLock({ objects[key] }) else {
            return Self.storageError("404", "NoSuchKey", "not_found", "Object not found")
        }
        return Response(
            status: .ok, headers: [.contentType: object.contentType, .cacheControl: "max-age=3600"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: object.data)))
    }

    static func storageError(_ status: String, _ code: String, _ error: String, _ message: String) -> Response {
        json(400, ["statusCode": status, "code": code, "error": error, "message": message])
    }

    /// A bucket's limits as its row holds them.
    struct BucketRow: Decodable {
        var file_size_limit: Int?
        var allowed_mime_types: [String]?
    }

    func storage(_ request: RecordedRequest, caller: Caller) async -> Response {
        let rest = request.path.dropFirst(Self.objectPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else {
            return Self.storageError("400", "InvalidKey", "invalid_key", "Invalid key")
        }
        let bucket = String(rest[..<slash]), name = String(rest[rest.index(after: slash)...])
        do {
            var binds = PostgresBindings()
            binds.append(bucket)
            guard let text = try await database.run(
                "select to_json(b)::text from (select file_size_limit, allowed_mime_types from storage.buckets where id = $1) b",
                binds: binds, as: caller, readOnly: true),
                let limits = try? JSONDecoder().decode(BucketRow.self, from: Data(text.utf8))
            else { return Self.storageError("404", "NoSuchBucket", "Bucket not found", "Bucket not found") }
            switch request.method {
            case "POST": return try await upload(request, bucket: bucket, name: name, limits: limits, caller: caller)
            case "DELETE": return try await remove(bucket: bucket, name: name, caller: caller)
            default: return Self.storageError("405", "InvalidRequest", "invalid_request", "Method not allowed")
            }
        } catch {
            switch PostgRESTError(error, authenticated: caller.isAuthenticated)?.code {
            case "42501"?: return Self.storageError("403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
            case "23505"?: return Self.storageError("409", "Duplicate", "Duplicate", "The resource already exists")
            default: return Self.storageError("500", "InternalError", "internal", "\(error)")
            }
        }
    }

    /// `POST`: the bucket's type and size limits, then the row (an upsert with `x-upsert: true`),
    /// then the bytes.
    private func upload(_ request: RecordedRequest, bucket: String, name: String, limits: BucketRow, caller: Caller) async throws -> Response {
        let type = request.headers["content-type"] ?? "text/plain;charset=UTF-8"
        if let types = limits.allowed_mime_types, !types.contains(type) {
            return Self.storageError("415", "InvalidMimeType", "invalid_mime_type", "mime type \(type) is not supported")
        }
        if let max = limits.file_size_limit, request.body.count > max {
            return Self.storageError("413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
        }
        var binds = PostgresBindings()
        binds.append(bucket)
        binds.append(name)
        binds.append(type)
        binds.append(request.body.count)
        let upsert = request.headers["x-upsert"] == "true"
        let id = try await database.run("""
            insert into storage.objects as o (bucket_id, name, metadata)
            values ($1, $2, jsonb_build_object('mimetype', $3::text, 'size', $4::bigint))
            \(upsert ? "on conflict (bucket_id, name) do update set metadata = excluded.metadata" : "")
            returning o.id::text
            """, binds: binds, as: caller, readOnly: false)
        lock.withLock { objects[Self.objectKey(bucket: bucket, name)] = (request.body, type) }
        return Self.json(200, ["Key": "\(bucket)/\(name)", "Id": id ?? ""])
    }

    /// `DELETE`: the row as the caller (the policy lets the owner only), then the bytes.
    private func remove(bucket: String, name: String, caller: Caller) async throws -> Response {
        var binds = PostgresBindings()
        binds.append(bucket)
        binds.append(name)
        let deleted = try await database.run(
            "with d as (delete from storage.objects where bucket_id = $1 and name = $2 returning 1) select count(*)::text from d",
            binds: binds, as: caller, readOnly: false)
        guard deleted == "1" else { return Self.storageError("404", "NoSuchKey", "not_found", "Object not found") }
        lock.withLock { objects[Self.objectKey(bucket: bucket, name)] = nil }
        return Self.json(200, ["message": "Successfully deleted"])
    }
}
