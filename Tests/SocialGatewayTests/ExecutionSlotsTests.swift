import EmbeddedStore
import Foundation
import GatewayTestSupport
import GraphQLEngine
import SocialDomain
import SocialFixtures
import SocialGateway
import Synchronization
import Testing

/// The bound on queries executing at once (issue #17: writes must not queue behind a burst of
/// uncached reads).
@Suite("Execution slots: a bound on queries at once, never on writes")
struct ExecutionSlotsTests {
    @Test("past the bound an execution waits, and slots are handed on first come, first served")
    func boundAndOrder() async throws {
        let slots = ExecutionSlots(limit: 1)
        await slots.acquire()
        let order = OrderLog()
        let first = Task {
            await slots.acquire()
            order.items.withLock { $0.append(1) }
            slots.release()
        }
        while slots.waiting < 1 { await Task.yield() }
        let second = Task {
            await slots.acquire()
            order.items.withLock { $0.append(2) }
            slots.release()
        }
        while slots.waiting < 2 { await Task.yield() }
        #expect(order.items.withLock { $0 }.isEmpty)
        slots.release()
        await first.value
        await second.value
        #expect(order.items.withLock { $0 } == [1, 2])
        #expect(slots.waiting == 0)
    }

    @Test("a long queue keeps first come, first served while served waiters are dropped from it (3,000 waiters)")
    func longQueueOrder() async throws {
        let slots = ExecutionSlots(limit: 1)
        await slots.acquire()
        let order = OrderLog()
        var tasks: [Task<Void, Never>] = []
        for index in 1...3000 {
            tasks.append(Task {
                await slots.acquire()
                order.items.withLock { $0.append(index) }
                slots.release()
            })
            while slots.waiting < index { await Task.yield() }
        }
        slots.release()
        for task in tasks { await task.value }
        #expect(order.items.withLock { $0 } == Array(1...3000))
        #expect(slots.waiting == 0)
    }

    @Test("a limit of 0 is no bound")
    func unbounded() async {
        let slots = ExecutionSlots(limit: 0)
        for _ in 0..<100 { await slots.acquire() }
        #expect(slots.waiting == 0)
    }

    @Test("with every slot held by a stuck query, another query waits but updateProfile and toggleFollow answer")
    func writesPassHeldSlots() async throws {
        try await TestStore.run(.embedded) { store in
            var stores = store.stores
            let gated = LookupGate()
            stores.profiles = HookedProfiles.gated(stores.profiles, by: gated)
            var options = GatewayOptions()
            options.maxConcurrentQueries = 1
            let service = try GatewayService(stores: stores, options: options)
            let alice = store.viewer(DemoData.aliceId)
            let card = "query Card($h: String!) { profile(handle: $h) { handle } }"
            let stuck = Task { await service.execute(GatewayRequest(query: card, variables: ["h": "bob_builder"], viewer: alice)) }
            while gated.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
            let queued = Task { await service.execute(GatewayRequest(query: card, variables: ["h": "carol_creator"], viewer: alice)) }
            while service.executionSlots.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }

            let update = await service.execute(GatewayRequest(
                query: "mutation { updateProfile(input: { bio: \"written while reads wait\" }) { profile { bio } } }", viewer: alice))
            #expect(!update.hasErrors)
            #expect(try JSONParser.parse(update.body)["data"]?["updateProfile"]?["profile"]?["bio"] == "written while reads wait")
            let toggle = await service.execute(GatewayRequest(
                query: "mutation($id: ID!) { toggleFollow(profileId: $id) { following } }",
                variables: ["id": .string(DemoData.carolId.uuidString.lowercased())], viewer: alice))
            #expect(!toggle.hasErrors)
            // The reads are still where they were: one at the gate, one waiting for its slot.
            #expect(gated.waiting == 1)
            #expect(service.executionSlots.waiting == 1)

            gated.open()
            let answers = [await stuck.value, await queued.value]
            #expect(answers.allSatisfy { !$0.hasErrors })
            #expect(try JSONParser.parse(answers[1].body)["data"]?["profile"]?["handle"] == "carol_creator")
        }
    }
}

/// The order in which tasks got their slot.
final class OrderLog: Sendable {
    let items = Mutex<[Int]>([])
}

/// Issue 51: subscription events never starve queries.
@Suite("Execution slots: subscription events wait behind requests and hold at most half the slots (issue 51)")
struct ExecutionSlotPriorityTests {
    @Test("a waiting request is served before an event that waited longer")
    func requestsFirst() async throws {
        let slots = ExecutionSlots(limit: 1)
        await slots.acquire()
        let order = OrderLog()
        let event = Task {
            await slots.acquire(.event)
            order.items.withLock { $0.append(1) }
            slots.release(.event)
        }
        while slots.waiting(.event) < 1 { await Task.yield() }
        let request = Task {
            await slots.acquire()
            order.items.withLock { $0.append(2) }
            slots.release()
        }
        while slots.waiting(.request) < 1 { await Task.yield() }
        #expect(slots.oldestWait(.event) != nil)
        slots.release()
        await request.value
        await event.value
        #expect(order.items.withLock { $0 } == [2, 1])
    }

    @Test("events hold at most half the slots: with 4, a third event waits while a request takes a free slot at once")
    func eventShare() async throws {
        let slots = ExecutionSlots(limit: 4)
        #expect(slots.eventLimit == 2)
        await slots.acquire(.event)
        await slots.acquire(.event)
        let third = Task { await slots.acquire(.event) }
        while slots.waiting(.event) < 1 { await Task.yield() }
        await slots.acquire()   // a free slot, at once
        #expect(slots.waiting(.event) == 1)
        slots.release(.event)
        await third.value
        #expect(slots.waiting == 0)
        slots.release(.event)
        slots.release(.event)
        slots.release()
    }
}
