import Foundation

/// A value behind a lock, for ``GraphMemory``: the reads walk records with closures of their own
/// (a page's rule, what it lacks) under the lock, which `Mutex.withLock`'s `sending` closures
/// do not allow. Every access goes through ``withLock(_:)``; nothing of the value escapes it but
/// copies of `Sendable` records.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
