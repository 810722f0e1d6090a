import Foundation
import FuzzSupport
import GatewayServer
import NIOCore

/// The multipart reader (GraphQL multipart request spec) on any body, split into chunks at
/// the sizes the first input byte picks (a parser that mishandles a boundary split across
/// chunks shows here), with small limits:
/// - it returns an upload or throws a `GatewayHTTPError`, never traps;
/// - every file it returns is no larger than the file limit and holds exactly its byte count;
/// - once the result is dropped, nothing is left in the spool folder.
let spool = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-multipart-\(getpid())", isDirectory: true)
let limits: MultipartUpload.Limits = {
    try! FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
    return MultipartUpload.Limits(
        maxFieldBytes: 16 * 1024, maxFileBytes: 8 * 1024, maxFiles: 3, maxBatchSize: 4, maxJSONValues: 1000,
        spoolDirectory: spool)
}()

struct Chunks: AsyncSequence, Sendable {
    let chunks: [ByteBuffer]
    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<ByteBuffer>
        mutating func next() async -> ByteBuffer? { rest.popFirst() }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: chunks[...]) }
}

func fuzzMultipart(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let bytes = Fuzz.bytes(data, count)
    guard let first = bytes.first else { return 0 }
    let size = Int(first % 64) + 1
    let body = Array(bytes.dropFirst())
    let chunks = stride(from: 0, to: body.count, by: size).map { ByteBuffer(bytes: body[$0..<min($0 + size, body.count)]) }
    do {
        let outcome: Result<MultipartUpload, GatewayHTTPError> = Fuzz.wait {
            do throws(GatewayHTTPError) {
                return .success(try await MultipartUpload.read(Chunks(chunks: chunks), boundary: "fuzzboundary", limits: limits))
            } catch {
                return .failure(error)
            }
        }
        if case .success(let upload) = outcome {
            for files in upload.files {
                for (key, file) in files {
                    guard file.byteCount <= limits.maxFileBytes, let read = try? file.readBytes(), read.count == file.byteCount else {
                        Fuzz.fail("file \(key): \(file.byteCount) bytes declared", input: String(decoding: body, as: UTF8.self))
                    }
                }
            }
        }
    }   // the upload, and with it its spooled files, is released here
    let left = (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []
    if !left.isEmpty { Fuzz.fail("spool files left behind: \(left)", input: String(decoding: body, as: UTF8.self)) }
    return 0
}

Fuzz.run(fuzzMultipart)
