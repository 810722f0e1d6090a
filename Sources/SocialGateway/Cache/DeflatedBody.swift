/// A response body kept compressed: one zlib stream (RFC 1950) of the body, with the CRC-32 and
/// length of the body it inflates to, so that HTTP can send it as either content coding without
/// compressing again.
///
/// HTTP's `deflate` coding is exactly a zlib stream (RFC 9110 §8.4.1.2), so ``zlib`` goes out as
/// it is. `gzip` (RFC 1952) wraps the same raw deflate data in another frame: ``gzip()`` drops the
/// zlib header and Adler-32 trailer, adds a 10-byte gzip header, and ends with the CRC-32 and the
/// length (ISIZE) kept here. So a cached answer costs the same CPU compressed or not: a copy of
/// the stored bytes (issue #41).
///
/// Every producer deflates at ``level`` with libdeflate (the response cache when it stores, the
/// HTTP layer for an answer the cache did not have), so equal bodies give equal compressed bytes
/// whether they come from the cache or not: what lets a compressed representation carry a
/// strong ETag.
///
/// ```swift
/// if let stored = hit.deflated, let gzip = stored.gzip() { send(gzip, coding: "gzip") }
/// ```
public struct DeflatedBody: Sendable, Hashable {
    /// The compression level of every deflate stream the gateway makes (libdeflate's 1: a
    /// follower graph's 149 KB in ~0.3 ms to 34 KB; level 6 saves 10% more for 4x the time).
    public static let level: Int32 = 1

    /// The body as one zlib stream.
    public var zlib: [UInt8]
    /// The CRC-32 (ISO-HDLC, as gzip's trailer) of the inflated body.
    public var crc32: UInt32
    /// The length of the inflated body.
    public var inflatedCount: Int

    public init(zlib: [UInt8], crc32: UInt32, inflatedCount: Int) {
        self.zlib = zlib
        self.crc32 = crc32
        self.inflatedCount = inflatedCount
    }

    /// The bytes ``zlib`` occupies in memory (what a copy kept in memory is accounted for).
    public var byteCount: Int { zlib.count }

    /// The range of the raw deflate data (RFC 1951) inside ``zlib``: after the 2-byte header,
    /// before the 4-byte Adler-32; nil when the header is not a deflate stream's without a preset
    /// dictionary (RFC 1950 §2.2: CM 8, a window of at most 32 KiB, FCHECK right, FDICT clear).
    public var rawDeflateRange: Range<Int>? {
        guard zlib.count >= 2 + 4 else { return nil }
        let cmf = zlib[0], flg = zlib[1]
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0, flg & 0x20 == 0 else { return nil }
        return 2..<(zlib.count - 4)
    }

    /// The same body as one gzip member (RFC 1952 §2.3): a 10-byte header (no name, no time,
    /// XFL 4 for the fastest level, OS 255 unknown), the raw deflate data of ``zlib``, then
    /// CRC-32 and ISIZE (the length modulo 2^32), little-endian. Nil when ``zlib`` is not a plain
    /// zlib stream (see ``rawDeflateRange``).
    public func gzip() -> [UInt8]? {
        guard let raw = rawDeflateRange else { return nil }
        let size = UInt32(truncatingIfNeeded: inflatedCount)
        return [UInt8](unsafeUninitializedCapacity: Self.gzipHeader.count + raw.count + 8) { buffer, count in
            var at = 0
            for byte in Self.gzipHeader {
                buffer[at] = byte
                at += 1
            }
            zlib.withUnsafeBufferPointer { source in
                let slice = UnsafeBufferPointer(rebasing: source[raw])
                _ = UnsafeMutableBufferPointer(rebasing: buffer[at..<(at + slice.count)]).initialize(fromContentsOf: slice)
            }
            at += raw.count
            for shift in stride(from: 0, to: 64, by: 8) {
                // CRC-32 then ISIZE, each little-endian.
                buffer[at] = UInt8(truncatingIfNeeded: (UInt64(size) << 32 | UInt64(crc32)) >> UInt64(shift))
                at += 1
            }
            count = at
        }
    }

    /// ID1 ID2 CM=8 FLG=0 MTIME=0 XFL=4 OS=255 (RFC 1952 §2.3).
    static let gzipHeader: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 4, 0xFF]
}
