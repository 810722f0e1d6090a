import Foundation
import Hummingbird
import SocialDomain

/// The fake's `/storage/v1/object` side with the avatars and stories buckets' owner-only
/// policies (each with its size and type limits), and
/// Storage's habit of answering HTTP 400 with the real status in the body's `statusCode`.
/// Stored objects are served back at their public URL, as the public bucket is.
extension SupabaseFake {
    static let avatarsPrefix = "/storage/v1/object/avatars/"
    static let publicAvatarsPrefix = "/storage/v1/object/public/avatars/"
    static let maxObjectBytes = 5 * 1024 * 1024
    static let storiesPrefix = "/storage/v1/object/stories/"
    static let publicStoriesPrefix = "/storage/v1/object/public/stories/"
    static let maxStoryBytes = 15 * 1024 * 1024

    /// A bucket's rules (migrations 000300 and 001500).
    struct Bucket {
        var name: String
        var maxBytes: Int
        var types: Set<String>
        /// Where its objects live in ``SupabaseFake/objects`` (avatars unprefixed, as before).
        var keyPrefix: String
    }
    static let avatars = Bucket(name: "avatars", maxBytes: maxObjectBytes, types: ["image/jpeg", "image/png"], keyPrefix: "")
    static let stories = Bucket(
        name: "stories", maxBytes: maxStoryBytes, types: ["image/jpeg", "image/png", "video/mp4", "video/quicktime"],
        keyPrefix: "stories/")

    /// `GET /storage/v1/object/public/avatars/<path>`: the bytes with their content type, no key needed.
    func publicObject(_ request: RecordedRequest) -> Response {
        let name = request.path.hasPrefix(Self.publicStoriesPrefix)
            ? Self.stories.keyPrefix + String(request.path.dropFirst(Self.publicStoriesPrefix.count))
            : String(request.path.dropFirst(Self.publicAvatarsPrefix.count))
        guard let object = lock.withLock({ objects[name] }) else {
            return Self.storageError("404", "NoSuchKey", "not_found", "Object not found")
        }
        return Response(
            status: .ok, headers: [.contentType: object.contentType, .cacheControl: "max-age=3600"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: object.data)))
    }

    static func storageError(_ status: String, _ code: String, _ error: String, _ message: String) -> Response {
        json(400, ["statusCode": status, "code": code, "error": error, "message": message])
    }

    func storage(_ request: RecordedRequest, caller: Caller) -> Response {
        let bucket: Bucket, name: String
        if request.path.hasPrefix(Self.avatarsPrefix) {
            (bucket, name) = (Self.avatars, String(request.path.dropFirst(Self.avatarsPrefix.count)))
        } else if request.path.hasPrefix(Self.storiesPrefix) {
            (bucket, name) = (Self.stories, String(request.path.dropFirst(Self.storiesPrefix.count)))
        } else {
            return Self.storageError("404", "NoSuchBucket", "Bucket not found", "Bucket not found")
        }
        let key = bucket.keyPrefix + name
        let folder = name.split(separator: "/").first.map(String.init)
        let owns: Bool
        if case .user(let me) = caller { owns = folder == me.lowercased } else { owns = false }
        return lock.withLock {
            switch request.method {
            case "POST":
                guard owns else {
                    return Self.storageError("403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
                }
                let type = request.headers["content-type"] ?? "text/plain;charset=UTF-8"
                guard bucket.types.contains(type) else {
                    return Self.storageError("415", "InvalidMimeType", "invalid_mime_type", "mime type \(type) is not supported")
                }
                guard request.body.count <= bucket.maxBytes else {
                    return Self.storageError("413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
                }
                if objects[key] != nil && request.headers["x-upsert"] != "true" {
                    return Self.storageError("409", "Duplicate", "Duplicate", "The resource already exists")
                }
                objects[key] = (request.body, type)
                return Self.json(200, ["Key": "\(bucket.name)/\(name)", "Id": UUID().lowercased])
            case "DELETE":
                guard owns, objects.removeValue(forKey: key) != nil else {
                    return Self.storageError("404", "NoSuchKey", "not_found", "Object not found")
                }
                return Self.json(200, ["message": "Successfully deleted"])
            default:
                return Self.storageError("405", "InvalidRequest", "invalid_request", "Method not allowed")
            }
        }
    }
}
