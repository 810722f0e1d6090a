import Foundation
import GRDB
import Logging
import Synchronization
@testable import ResponseCache
import SocialGateway

/// A fresh directory under the system temp dir for one test's cache file.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("response-cache-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A store on a fresh file, with a logger that records what it says.
func makeStore(options: ResponseCacheOptions = .init()) throws -> (ResponseCacheStore, LogRecorder, URL) {
    let dir = try temporaryDirectory()
    let recorder = LogRecorder()
    let path = dir.appendingPathComponent("cache.sqlite")
    let store = ResponseCacheStore.open(path: path, options: options, logger: recorder.logger)
    return (store, recorder, path)
}

/// A key for `document` in `scope`, with fixed name and variables unless given.
func key(_ document: String = "{ me { id } }", name: String? = nil, variables: String = "{}", scope: CacheScope = .shared) -> CacheKey {
    CacheKey(document: document, operationName: name, variables: variables, scope: scope)
}

let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Records log messages with their level, to assert that a degrade was logged.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
    }

    let entries = Mutex<[Entry]>([])

    var logger: Logger {
        Logger(label: "test.response-cache") { _ in Handler(recorder: self) }
    }

    var warnings: [String] {
        entries.withLock { $0.filter { $0.level >= .warning }.map(\.message) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let text = "\(event.message) \(event.metadata ?? [:])"
            recorder.entries.withLock { $0.append(Entry(level: event.level, message: text)) }
        }
    }
}

/// A connection allowed to keep a transaction open across accesses: it holds the file's write
/// lock between a `BEGIN IMMEDIATE` and a `COMMIT`, so that the store's writer waits.
func lockHolder(_ path: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.allowsUnsafeTransactions = true
    // The store's background work (a reclaim after an invalidation) may hold the lock a moment.
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: path.path, configuration: configuration)
}
