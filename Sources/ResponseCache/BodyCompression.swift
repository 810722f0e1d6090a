import CZlib

/// Cached bodies are kept deflated (zlib format, level 1) in the cache file.
///
/// Why: a follower graph's answer is 131 KB of JSON whose keys repeat on every profile; level 1
/// makes it 31 KB in 0.9 ms (once, on the background store) and inflating it back takes 0.4 ms
/// (on a hit from the file; hits from memory keep the inflated bytes). A cache of 64 MiB then
/// holds four times the answers: with 1,000 random graphs, whether they fit at all (issue #17).
/// Small bodies stay as they are: under ``minimumBytes`` the saving is not worth a call.
enum BodyCompression {
    /// How a stored body is encoded (`entries.encoding`).
    enum Encoding: Int64 {
        case identity = 0
        case deflate = 1
    }

    static let minimumBytes = 1024

    /// The bytes to store and their encoding: deflated when that is smaller.
    static func encode(_ body: [UInt8]) -> (bytes: [UInt8], encoding: Encoding) {
        guard body.count >= minimumBytes, let deflated = deflate(body), deflated.count < body.count else {
            return (body, .identity)
        }
        return (deflated, .deflate)
    }

    /// The body stored as `bytes` with `encoding`, or nil when the bytes do not inflate (a damaged
    /// row, treated as a miss) or inflate past `limit` bytes.
    static func decode(_ bytes: [UInt8], encoding: Int64, limit: Int) -> [UInt8]? {
        switch Encoding(rawValue: encoding) {
        case .identity?: return bytes
        case .deflate?: return inflate(bytes, limit: limit)
        case nil: return nil
        }
    }

    static func deflate(_ input: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(compressBound(uLong(input.count))))
        var length = uLongf(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &length, source.baseAddress, uLong(input.count), 1)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeSubrange(Int(length)...)
        return output
    }

    /// Inflates a zlib stream, growing the output as needed up to `limit` bytes.
    static func inflate(_ input: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: min(max(input.count * 5, 4096), limit))
        var produced = 0
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                if produced == output.count {
                    guard output.count < limit else { return nil }
                    output.append(contentsOf: repeatElement(0, count: min(output.count, limit - output.count)))
                }
                let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = uInt(out.count - produced)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced = out.count - Int(stream.avail_out)
                    return status
                }
                switch status {
                case Z_STREAM_END:
                    output.removeSubrange(produced...)
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR where produced == output.count:
                    continue
                default:
                    return nil
                }
            }
        }
    }
}
