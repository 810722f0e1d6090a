import Foundation
import GraphQLEngine
import Hummingbird
import NIOCore
import SocialGateway

/// A GraphQL multipart request (github.com/jaydenseric/graphql-multipart-request-spec), read
/// from the request body as it streams in.
///
/// The fields must come in the spec's order: `operations` (the JSON request, files as `null`),
/// `map` (file field -> operation paths), then the files. Because the map arrives before any
/// file, the file count is checked before a single file byte is read, and each file is counted
/// as it arrives: the first byte past the per-file limit ends the request with 413, without
/// reading the rest. File parts are never held in memory: each is written to a temporary file
/// in ``Limits/spoolDirectory`` as it streams in (``SpooledFile`` deletes it when the request is
/// done with it). The body's syntax is read by ``MultipartReader``.
///
/// ```swift
/// let upload = try await MultipartUpload.read(request.body, boundary: boundary, limits: limits)
/// for (index, operation) in upload.request.operations.enumerated() { ... upload.fileMaps[index] ... }
/// ```
public struct MultipartUpload: Sendable {
    /// The decoded `operations` field: one operation or a batch.
    public var request: GraphQLHTTPRequest
    /// Per operation, the map with paths relative to that operation (`variables.file`).
    public var fileMaps: [[String: [String]]]
    /// Per operation, the files its map names.
    public var files: [[String: UploadedFile]]

    /// The limits a multipart request is read under.
    public struct Limits: Sendable {
        /// Largest `operations` or `map` field.
        public var maxFieldBytes: Int
        /// Largest single file.
        public var maxFileBytes: Int
        /// Most files.
        public var maxFiles: Int
        /// Most operations in a batch.
        public var maxBatchSize: Int
        /// Most values in the `operations` and in the `map` JSON (see ``GraphQLHTTPRequest``).
        public var maxJSONValues: Int
        /// Where file parts are spooled while they stream in.
        public var spoolDirectory: URL

        public init(
            maxFieldBytes: Int, maxFileBytes: Int, maxFiles: Int, maxBatchSize: Int, maxJSONValues: Int = 10_000,
            spoolDirectory: URL = FileManager.default.temporaryDirectory
        ) {
            self.maxFieldBytes = maxFieldBytes
            self.maxFileBytes = maxFileBytes
            self.maxFiles = maxFiles
            self.maxBatchSize = maxBatchSize
            self.maxJSONValues = maxJSONValues
            self.spoolDirectory = spoolDirectory
        }

        /// Everything together, with room for part headers: a cap on preambles and epilogues too.
        var maxTotalBytes: Int { 2 * maxFieldBytes + maxFiles * maxFileBytes + 64 * 1024 }
    }

    /// Reads and checks a multipart body.
    /// - Throws: ``GatewayHTTPError`` `invalidMultipart`, `fileTooLarge`, `tooManyFiles`,
    ///   `bodyTooLarge`, `invalidJSON`, `invalidParameters`, `batchTooLarge`.
    public static func read<Body: AsyncSequence>(_ body: Body, boundary: String, limits: Limits) async throws(GatewayHTTPError) -> MultipartUpload
    where Body.Element == ByteBuffer {
        guard !boundary.isEmpty, boundary.utf8.count <= 70 else {
            throw .invalidMultipart("the Content-Type has no usable boundary parameter.")
        }
        let collector = PartCollector(limits: limits)
        var reader = MultipartReader(boundary: boundary)
        var total = 0
        // On any failure the open spool file is closed; finished ones are deleted with the
        // collector's values.
        defer { collector.closeSpool() }
        do {
            for try await chunk in body {
                total += chunk.readableBytes
                guard total <= limits.maxTotalBytes else { throw GatewayHTTPError.bodyTooLarge(limit: limits.maxTotalBytes) }
                try reader.read(chunk, into: collector)
                if let failure = collector.failure { throw failure }
            }
            try reader.finish()
        } catch let error as GatewayHTTPError {
            throw error
        } catch let error as MultipartReader.Failure {
            throw .invalidMultipart("the body is not valid multipart/form-data: \(error.reason)")
        } catch {
            throw .invalidMultipart("the body is not valid multipart/form-data.")
        }
        return try collector.finish()
    }
}

/// The state behind the parser's callbacks: which field is open, and what has been collected.
private final class PartCollector: MultipartReader.Handler {
    let limits: MultipartUpload.Limits
    var failure: GatewayHTTPError?

    var headers: [(String, String)] = []
    var open: Open?
    /// The open `operations` or `map` field.
    var buffer: [UInt8] = []
    /// The open file part: where it goes, and how many bytes it has so far.
    var spool: (file: SpooledFile, handle: FileHandle)?
    var spooledBytes = 0
    var operations: GraphQLHTTPRequest?
    var map: [String: [String]]?
    var files: [String: UploadedFile] = [:]

    enum Open {
        case operations, map
        case file(key: String, filename: String?, contentType: String?)
    }

    init(limits: MultipartUpload.Limits) { self.limits = limits }

    func header(name: String, value: String) {
        headers.append((name.lowercased(), value))
    }

    func body(_ chunk: inout ByteBuffer) {
        guard failure == nil else { return }
        if open == nil { begin() }
        guard failure == nil, let open else { return }
        let limit: Int
        switch open {
        case .operations, .map: limit = limits.maxFieldBytes
        case .file: limit = limits.maxFileBytes
        }
        if case .file = open {
            guard spooledBytes + chunk.readableBytes <= limit else { return fail(.fileTooLarge(limit: limit)) }
            spooledBytes += chunk.readableBytes
            guard let handle = spool?.handle else { return }
            do {
                try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            } catch {
                fail(.uploadSpoolFailed)
            }
            return
        }
        guard buffer.count + chunk.readableBytes <= limit else { return fail(.bodyTooLarge(limit: limit)) }
        buffer.append(contentsOf: chunk.readableBytesView)
    }

    /// Starts the temporary file of a file part.
    func openSpool() {
        let url = limits.spoolDirectory.appendingPathComponent("social-gateway-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            try? FileManager.default.removeItem(at: url)
            return fail(.uploadSpoolFailed)
        }
        spool = (SpooledFile(url: url), handle)
        spooledBytes = 0
    }

    /// Closes the open file part's handle, if any (the file itself goes with its ``SpooledFile``).
    func closeSpool() {
        try? spool?.handle.close()
    }

    func partComplete() {
        guard failure == nil else { return }
        if open == nil { begin() }
        guard failure == nil, let part = open else { return }
        switch part {
        case .operations:
            do {
                operations = try GraphQLHTTPRequest.decodeJSON(
                    buffer, maxBatchSize: limits.maxBatchSize, maxJSONValues: limits.maxJSONValues)
            } catch {
                fail(error)
            }
        case .map:
            decodeMap()
        case .file(let key, let filename, let contentType):
            guard let spool else { return fail(.uploadSpoolFailed) }
            closeSpool()
            files[key] = UploadedFile(filename: filename, contentType: contentType, spooled: spool.file, byteCount: spooledBytes)
            self.spool = nil
        }
        open = nil
        headers = []
        buffer = []
    }

    /// Decides what the part whose headers were just read is, enforcing the spec's order.
    func begin() {
        let disposition = headers.first { $0.0 == "content-disposition" }.map { DispositionHeader($0.1) }
        guard let disposition, disposition.type == "form-data", let name = disposition.parameters["name"] else {
            return fail(.invalidMultipart("every part needs a Content-Disposition: form-data header with a name."))
        }
        if operations == nil {
            guard name == "operations" else {
                return fail(.invalidMultipart("the first field must be \"operations\", got \"\(name)\"."))
            }
            open = .operations
        } else if map == nil {
            guard name == "map" else { return fail(.invalidMultipart("the second field must be \"map\", got \"\(name)\".")) }
            open = .map
        } else {
            guard map?[name] != nil else {
                return fail(.invalidMultipart("the field \"\(name)\" is not named in the map."))
            }
            guard files[name] == nil else { return fail(.invalidMultipart("the file \"\(name)\" is sent twice.")) }
            open = .file(
                key: name, filename: disposition.parameters["filename"],
                contentType: headers.first { $0.0 == "content-type" }?.1)
            openSpool()
        }
    }

    func decodeMap() {
        let parsed: JSONValue
        do {
            parsed = try GraphQLHTTPRequest.parseJSON(buffer, maxValues: limits.maxJSONValues)
        } catch {
            if case .tooManyJSONValues = error { return fail(error) }
            return fail(.invalidMultipart("the \"map\" field must be a JSON object of file field names to path arrays."))
        }
        guard case .object(let object) = parsed else {
            return fail(.invalidMultipart("the \"map\" field must be a JSON object of file field names to path arrays."))
        }
        guard object.count <= limits.maxFiles else { return fail(.tooManyFiles(limit: limits.maxFiles)) }
        var map: [String: [String]] = [:]
        for (key, value) in object {
            guard case .array(let items) = value, !items.isEmpty else {
                return fail(.invalidMultipart("the map entry \"\(key)\" must be a non-empty array of paths."))
            }
            var paths: [String] = []
            for item in items {
                guard case .string(let path) = item else {
                    return fail(.invalidMultipart("the map entry \"\(key)\" must hold path strings."))
                }
                paths.append(path)
            }
            map[key] = paths
        }
        self.map = map
    }

    func fail(_ error: GatewayHTTPError) {
        if failure == nil { failure = error }
    }

    /// Checks completeness and splits the map per operation.
    func finish() throws(GatewayHTTPError) -> MultipartUpload {
        if let failure { throw failure }
        guard open == nil, headers.isEmpty else { throw .invalidMultipart("the body ended inside a part.") }
        guard let operations else { throw .invalidMultipart("the \"operations\" field is missing.") }
        guard let map else { throw .invalidMultipart("the \"map\" field is missing.") }
        for key in map.keys.sorted() where files[key] == nil {
            throw .invalidMultipart("the map names the file \"\(key)\", which was not sent.")
        }
        let count = operations.operations.count
        var maps = [[String: [String]]](repeating: [:], count: count)
        var perOperationFiles = [[String: UploadedFile]](repeating: [:], count: count)
        for (key, paths) in map {
            for path in paths {
                var index = 0
                var relative = path
                if case .batch = operations {
                    guard let dot = path.firstIndex(of: "."), let number = Int(path[..<dot]), (0..<count).contains(number) else {
                        throw .invalidMultipart("the map path \"\(path)\" must start with an operation index of the batch.")
                    }
                    index = number
                    relative = String(path[path.index(after: dot)...])
                }
                maps[index][key, default: []].append(relative)
                perOperationFiles[index][key] = files[key]
            }
        }
        return MultipartUpload(request: operations, fileMaps: maps, files: perOperationFiles)
    }
}

/// `form-data; name="file"; filename="a b;c.png"`, split with quoted strings kept whole.
struct DispositionHeader {
    var type: String
    var parameters: [String: String] = [:]

    init(_ text: String) {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        type = pieces.first?.trimmingSpaces.lowercased() ?? ""
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            parameters[piece[..<equals].trimmingSpaces.lowercased()] = String(piece[piece.index(after: equals)...]).trimmingSpaces
        }
    }
}
