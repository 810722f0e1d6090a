import CDeflate
import SocialGateway

/// Cached bodies are kept deflated (zlib format, level 1) in the cache file.
///
/// Why: a follower graph's answer is 149 KB of JSON whose keys repeat on every profile; level 1
/// makes it 34 KB in 0.3 ms (once, on the background store) and inflating it back takes 0.09 ms
/// (on a hit from the file; hits from memory keep the inflated bytes). libdeflate, not zlib: it
/// works on whole buffers, which is all a cache needs, in a third of zlib's time to deflate and
/// half to inflate (zlib's per-call state setup alone was 68 us for a 3 KB card), and writes the
/// same format, so files written with zlib read back unchanged. A cache of 64 MiB then
/// holds four times the answers: with 1,000 random graphs, whether they fit at all (issue #17).
/// Small bodies stay as they are: under ``minimumBytes`` the saving is not worth a call.
///
/// The level is ``SocialGateway/DeflatedBody/level``, the HTTP layer's too: a stored stream is
/// sent as it is to clients that take `deflate`, and re-framed for `gzip` with the body's CRC-32
/// kept beside it (``crc32(_:)``, `entries.crc32`), so that a compressed hit costs no more than
/// an uncompressed one (issue #41).
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

    /// The body as one zlib stream (level 1), or nil if it could not be compressed.
    static func deflate(_ input: [UInt8]) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(DeflatedBody.level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, input.count)
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = input.withUnsafeBytes { source in
                libdeflate_zlib_compress(compressor, source.baseAddress, source.count, buffer.baseAddress, buffer.count)
            }
        }
        guard !output.isEmpty else { return nil }
        // At its exact size: the stream is kept (in memory too, see ``HotEntries``), and the
        // buffer was allocated for the bound, about the body's length.
        return output.capacity - output.count <= output.count / 8 ? output : output.withUnsafeBufferPointer(Array.init)
    }

    /// The CRC-32 of `body`, as gzip's trailer carries it (libdeflate's, some GB/s).
    static func crc32(_ body: [UInt8]) -> UInt32 {
        body.withUnsafeBytes { UInt32(truncatingIfNeeded: libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }

    /// The stored form of `body` for HTTP: its zlib stream with the body's CRC-32 (`crc32`, or
    /// computed now when the entry was stored before the cache kept it), or nil for an identity one.
    static func deflated(_ stored: [UInt8], encoding: Encoding, body: [UInt8], crc32: UInt32?) -> DeflatedBody? {
        guard encoding == .deflate else { return nil }
        return DeflatedBody(zlib: stored, crc32: crc32 ?? Self.crc32(body), inflatedCount: body.count)
    }

    /// Inflates one zlib stream of at most `limit` bytes, or nil when it is damaged or longer.
    ///
    /// The stream does not say how long it inflates, so the output buffer starts at a guess
    /// (bodies here deflate 3-5x) and grows fourfold when that is short; the answer is copied out
    /// at its exact size, so that a body kept in memory holds no spare capacity.
    static func inflate(_ input: [UInt8], limit: Int) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = min(max(input.count * 6, 4096), limit)
        while true {
            var status = LIBDEFLATE_BAD_DATA
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var produced = 0
                // Not `buffer.count`: the allocation may be larger, and the limit is exact.
                status = input.withUnsafeBytes { source in
                    libdeflate_zlib_decompress(
                        decompressor, source.baseAddress, source.count, buffer.baseAddress, min(buffer.count, capacity),
                        &produced)
                }
                count = status == LIBDEFLATE_SUCCESS ? produced : 0
            }
            switch status {
            case LIBDEFLATE_SUCCESS:
                // A new buffer of the exact size (`Array(output[...])` would keep this one).
                return output.capacity - output.count <= output.count / 8 ? output : output.withUnsafeBufferPointer(Array.init)
            case LIBDEFLATE_INSUFFICIENT_SPACE where capacity < limit:
                capacity = capacity > limit / 4 ? limit : capacity * 4
            default:
                return nil
            }
        }
    }
}
