import Foundation
import Hummingbird

/// Builds `multipart/form-data` bodies the way curl's `-F` does, for upload tests.
struct MultipartBody {
    let boundary = "----gateway-test-\(UUID().uuidString.lowercased())"
    var bytes: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func field(_ name: String, _ value: String) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    mutating func file(_ name: String, filename: String, contentType: String, _ data: [UInt8]) {
        bytes += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        bytes += data
        bytes += Array("\r\n".utf8)
    }

    func finished() -> ByteBuffer {
        ByteBuffer(bytes: bytes + Array("--\(boundary)--\r\n".utf8))
    }

    /// The usual single-avatar request: operations, map, one file under "0".
    static func avatarUpload(filename: String, contentType: String, data: [UInt8]) -> MultipartBody {
        var body = MultipartBody()
        body.field("operations", #"{"query":"mutation($file: Upload!) { uploadAvatar(file: $file) { avatarURL profile { handle avatarURL } } }","variables":{"file":null}}"#)
        body.field("map", #"{"0":["variables.file"]}"#)
        body.file("0", filename: filename, contentType: contentType, data)
        return body
    }
}

/// Small valid images: the headers the domain reads (magic bytes, then a 1x1 frame), plus padding.
enum TestImages {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0, 0xFF, 0xD9] + Array(repeating: 0x20, count: 200)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE] + Array(repeating: 0x00, count: 200)

    /// A PNG header declaring `width` x `height` pixels: a few bytes that would decode to a huge image.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [width, height] { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return bytes + [8, 2, 0, 0, 0, 0, 0, 0, 0]
    }
}
