import CLibFuzzer
import Dispatch
import Foundation
import GraphQLEngine
import GraphQLLanguage

/// What the fuzzers share: their fixtures, read once from the repository, and a way to wait
/// for async work from libFuzzer's synchronous callback.
public enum Fuzz {
    /// The repository's root, found from this file's path (the fuzzers run from a checkout).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file of the repository as text; a missing fixture stops the fuzzer at once.
    public static func text(_ relativePath: String) -> String {
        let url = repository.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("fuzz fixture missing: \(url.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A schema built from a repository file; one that does not build stops the fuzzer at once.
    public static func schema(_ relativePath: String) -> GraphQLSchema {
        do {
            return try SchemaBuilder.build(sdl: text(relativePath))
        } catch {
            fatalError("fuzz schema \(relativePath) does not build: \(error)")
        }
    }

    /// The fuzzer's input as text, the way a request's JSON string would carry it: invalid
    /// UTF-8 repaired, as every text reaching the engine has been.
    public static func string(_ data: UnsafeRawPointer, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    }

    public static func bytes(_ data: UnsafeRawPointer, _ count: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: data, count: count))
    }

    /// Runs async work to completion from a synchronous caller (libFuzzer's callback thread,
    /// which is not one of the concurrency pool's threads, so blocking it is safe).
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        // Taken out of the box: the finished task may release its context (and the box) a little
        // later, on its own thread, and the value must not live on with it.
        defer { box.value = nil }
        return box.value!
    }

    /// Runs libFuzzer with `callback` as the code under test, and exits with its status.
    ///
    /// Called from each fuzzer's main.swift: SwiftPM links executables with an entry point of
    /// their own, so libFuzzer's `main` is not used; its driver takes the same arguments.
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// Stops the fuzzer with a message: libFuzzer records the input as a crash.
    public static func fail(_ message: @autoclosure () -> String, input: String) -> Never {
        fatalError("\(message())\n--- input ---\n\(input.debugDescription)")
    }
}

/// Carries a value out of a task to the thread waiting for it (ordered by the semaphore).
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
