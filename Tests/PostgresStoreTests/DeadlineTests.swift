@testable import PostgresStore
import Synchronization
import Testing

/// `withDeadline` bounds every PostgreSQL call of the store. These need no database.
@Suite("A database call's deadline holds even when the call ignores cancellation")
struct DeadlineTests {
    @Test("an operation that ignores cancellation: the caller gets DeadlinePassed while it still runs")
    func deadlineDoesNotWaitForTheOperation() async throws {
        let gate = Gate()
        // Opens the gate later in any case, so a withDeadline that waited for the operation
        // ends (and fails the expectation below) instead of hanging the suite.
        let opener = Task { try? await Task.sleep(for: .seconds(10)); gate.open() }
        defer { opener.cancel() }
        await #expect(throws: DeadlinePassed.self) {
            try await withDeadline(.milliseconds(50)) {
                await gate.wait()   // not cancellable, like a read on a socket nobody answers
                return 1
            }
        }
        #expect(!gate.isOpen, "the caller waited for the operation instead of its deadline")
        gate.open()
    }

    @Test("an operation that answers in time: its value, or its own error")
    func answerInTime() async throws {
        #expect(try await withDeadline(.seconds(30)) { 7 } == 7)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withDeadline(.seconds(30)) { () async throws -> Int in throw Refused() }
        }
    }

    @Test("cancelling the caller ends the wait with CancellationError and cancels the operation")
    func callerCancelled() async throws {
        let started = Gate(), ended = Gate()
        let sawCancellation = Mutex(false)
        let caller = Task {
            try await withDeadline(.seconds(60)) { () async throws -> Int in
                started.open()
                try? await Task.sleep(for: .seconds(30))   // cut short when cancelled
                sawCancellation.withLock { $0 = Task.isCancelled }
                ended.open()
                return 1
            }
        }
        await started.wait()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        await ended.wait()
        #expect(sawCancellation.withLock { $0 })
    }
}

/// A one-shot latch whose `wait` does not answer cancellation.
private final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
