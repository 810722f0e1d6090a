import Foundation

/// An image's size in pixels, read from its header without decoding it.
///
/// Avatars are shown by every app that loads a profile, and a small file can declare a huge
/// image (a PNG of a few kilobytes can inflate to gigabytes of pixels): the upload rule bounds
/// the declared size (``UploadAvatar/maxDimension``) so that no avatar is a decompression bomb
/// for its viewers.
///
/// ```swift
/// let size = ImageDimensions(of: bytes, format: .png)   // nil: no readable header
/// ```
public struct ImageDimensions: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest width and height an image may declare, in pixels: avatars and story images alike.
    public static let maxDimension = 4096

    /// The rule every uploaded image follows: a readable header declaring at least 1 x 1 and at
    /// most ``maxDimension`` pixels each way (a decompression bomb is refused unread).
    /// - Throws: ``DomainError/invalidImage`` (no readable header), ``DomainError/imageTooLarge``.
    @discardableResult
    public static func checked(_ bytes: Data, format: ImageFormat) throws -> ImageDimensions {
        guard let size = ImageDimensions(of: bytes, format: format), size.width > 0, size.height > 0 else {
            throw DomainError.invalidImage
        }
        guard size.width <= maxDimension, size.height <= maxDimension else { throw DomainError.imageTooLarge }
        return size
    }

    /// The dimensions the header of `bytes` declares, or nil when it has no readable header.
    public init?(of bytes: Data, format: ImageFormat) {
        let found: ImageDimensions? =
            switch format {
            case .png: Self.png(Array(bytes.prefix(24)))
            case .jpeg: Self.jpeg(bytes)
            }
        guard let found else { return nil }
        self = found
    }

    /// PNG: the first chunk is IHDR, width and height big-endian at offsets 16 and 20.
    static func png(_ b: [UInt8]) -> ImageDimensions? {
        guard b.count >= 24, b[12...15].elementsEqual("IHDR".utf8) else { return nil }
        return ImageDimensions(width: bigEndian(b, 16, 4), height: bigEndian(b, 20, 4))
    }

    /// JPEG: walks the marker segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG,
    /// DAC), whose height and width follow the sample precision. Work is linear in the file.
    static func jpeg(_ data: Data) -> ImageDimensions? {
        let b = [UInt8](data)
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            i += 2
            switch marker {
            case 0xD8, 0x01, 0xD0...0xD7: continue  // no payload
            case 0xD9, 0xDA: return nil  // end of image, or scan data before any frame header
            default: break
            }
            guard i + 1 < b.count else { return nil }
            let length = bigEndian(b, i, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard i + 7 <= b.count, length >= 7 else { return nil }
                return ImageDimensions(width: bigEndian(b, i + 5, 2), height: bigEndian(b, i + 3, 2))
            }
            i += length
        }
        return nil
    }

    static func bigEndian(_ b: [UInt8], _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for k in 0..<count { value = value << 8 | Int(b[offset + k]) }
        return value
    }
}

extension DomainError {
    /// An image (avatar or story) without a readable header.
    public static let invalidImage = DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file")
    /// An image (avatar or story) whose header declares more than ``ImageDimensions/maxDimension`` pixels.
    public static let imageTooLarge = DomainError(
        .payloadTooLarge,
        "Image exceeds maximum dimensions of \(ImageDimensions.maxDimension)x\(ImageDimensions.maxDimension) pixels",
        field: "file")
}
