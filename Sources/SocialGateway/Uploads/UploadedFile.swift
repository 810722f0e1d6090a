import Foundation

/// A file received in a multipart request.
///
/// The HTTP layer spools file parts to a temporary file as they stream in, so a slow client
/// trickling a 5 MB upload holds a file descriptor, not 5 MB of memory; the bytes are read
/// once, when the mutation that uses the file runs. The temporary file is deleted when the
/// last copy of the value goes (``SpooledFile``). Tests and in-process callers can hand over
/// bytes directly.
///
/// ```swift
/// let file = UploadedFile(filename: "me.png", contentType: "image/png", bytes: png)
/// let data = try file.readBytes()
/// ```
public struct UploadedFile: Sendable {
    public var filename: String?
    /// The type the client declared; the domain checks the bytes, not this.
    public var contentType: String?
    /// How many bytes the file has.
    public let byteCount: Int
    private let storage: Storage

    private enum Storage: Sendable {
        case memory(Data)
        case spooled(SpooledFile)
    }

    /// A file held in memory.
    public init(filename: String?, contentType: String?, bytes: Data) {
        self.filename = filename
        self.contentType = contentType
        self.byteCount = bytes.count
        self.storage = .memory(bytes)
    }

    /// A file spooled to disk; the file is deleted once no value refers to it.
    public init(filename: String?, contentType: String?, spooled: SpooledFile, byteCount: Int) {
        self.filename = filename
        self.contentType = contentType
        self.byteCount = byteCount
        self.storage = .spooled(spooled)
    }

    /// The file's bytes.
    /// - Throws: the file system's error when a spooled file cannot be read back.
    public func readBytes() throws -> Data {
        switch storage {
        case .memory(let data): data
        case .spooled(let file): try Data(contentsOf: file.url)
        }
    }
}

/// A temporary file that is deleted when this object goes away (the request that received it
/// has finished with it), whatever path the request took: answered, failed or cancelled.
public final class SpooledFile: Sendable {
    public let url: URL

    public init(url: URL) { self.url = url }

    deinit { try? FileManager.default.removeItem(at: url) }
}
