import Foundation
@testable import GatewayServer
import Hummingbird
import HummingbirdTesting
import SocialGateway
import Testing

/// Issue 51, items 2 and 4: the bounds on streaming connections and the 503 gate's view of the
/// execution slots, which socket operations and event executions share with HTTP requests.
@Suite("Streaming bounds: sockets per address and in all, the gate over the slots' backlog (issue 51)")
struct StreamingBoundsTests {
    @Test("MAX_STREAMING_CONNECTIONS defaults below the descriptor limit: 225 of 300, at most 10,000")
    func descriptorBound() {
        #expect(SubscriptionLimits.descriptorBound(forLimit: 300) == 225)
        #expect(SubscriptionLimits.descriptorBound(forLimit: 1024) == 768)
        #expect(SubscriptionLimits.descriptorBound(forLimit: 1_048_576) == 10_000)
        #expect(SubscriptionLimits().maxConnections <= 10_000)
    }

    @Test("sockets not signed in are bounded per address, all streams in total; signing in frees the address's place")
    func admission() {
        let admission = StreamingAdmission(limits: SubscriptionLimits(connectionsPerAddress: 2, maxConnections: 3))
        #expect(admission.openSocket(address: "198.51.100.7") == nil)
        #expect(admission.openSocket(address: "198.51.100.7") == nil)
        let perAddress = admission.openSocket(address: "198.51.100.7")
        #expect(perAddress == .perAddress(limit: 2))
        #expect(perAddress?.reason == "Try again later: this address holds 2 sockets not signed in")
        admission.signedIn(address: "198.51.100.7")
        #expect(admission.openStream())
        let total = admission.openSocket(address: "203.0.113.9")
        #expect(total == .total(limit: 3))
        #expect(total?.reason == "Try again later: the server holds 3 streaming connections")
        #expect(!admission.openStream())
        #expect(GatewayHTTPError.tooManyStreams(limit: 3).status == .serviceUnavailable)
        #expect(GatewayHTTPError.tooManyStreams(limit: 3).code == "SERVER_BUSY")
        admission.closeStream()
        admission.closeSocket(address: "198.51.100.7", signedIn: true)
        #expect(admission.open == 1)
        #expect(admission.openSocket(address: "203.0.113.9") == nil)
    }

    @Test("the 503 gate sees the execution slots: a request backlog older than MAX_QUEUE_WAIT refuses HTTP requests and socket operations")
    func gateSeesTheSlots() async throws {
        let slots = ExecutionSlots(limit: 1)
        let gate = QueueWaitGate(
            maxWait: .milliseconds(20), metrics: GatewayMetrics(storeCallCounts: { [:] }), slots: slots)
        await slots.acquire()
        #expect(gate.admitOperation())
        // Events waiting behind do not count: they are the server's own work, served last.
        let event = Task { await slots.withSlot(.event) {} }
        while slots.waiting(.event) < 1 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(40))
        #expect(gate.admitOperation())
        let waiter = Task { await slots.withSlot {} }
        while slots.waiting(.request) < 1 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(40))
        #expect(!gate.admitOperation())
        #expect(throws: GatewayHTTPError.self) { try gate.admit(Request(head: .init(method: .post, scheme: "http", authority: "x", path: "/graphql"), body: .init(buffer: .init()))) }
        slots.release()
        await waiter.value
        await event.value
        #expect(gate.admitOperation())
    }

    @Test("the subscription settings are read from the environment")
    func environment() throws {
        let configuration = try ServerConfiguration.fromEnvironment([
            "SUBSCRIPTION_MAX_COST": "300", "SUBSCRIPTIONS_PER_VIEWER": "7", "NOTIFICATION_REPEAT_WINDOW": "0",
            "STREAMS_PER_ADDRESS": "3", "MAX_STREAMING_CONNECTIONS": "99", "WEBSOCKET_ANONYMOUS_IDLE_TIMEOUT": "4",
        ])
        let limits = configuration.subscriptions
        #expect(limits.maxCost == 300)
        #expect(limits.subscriptionsPerViewer == 7)
        #expect(limits.notificationRepeatWindowSeconds == 0)
        #expect(limits.connectionsPerAddress == 3)
        #expect(limits.maxConnections == 99)
        #expect(limits.anonymousIdleTimeoutSeconds == 4)
    }
}
