import Foundation
import SocialDomain
import Testing

@testable import SocialGateway

/// What each kind of change empties in the graph memory (issue 53): the records it names, and
/// everything only for a change the memory cannot place.
@Suite("Graph memory: invalidation by typed changes")
struct GraphMemoryInvalidationTests {
    let alice = UUID(), bob = UUID()

    func filled() throws -> GraphMemory {
        let memory = GraphMemory()
        let ticket = try #require(memory.ticket())
        let now = Date()
        memory.keep([alice, bob].map { Profile(id: $0, handle: "h\($0.uuidString.prefix(6))", createdAt: now, updatedAt: now) }, readUnder: ticket)
        memory.keep(facts: ViewerFacts(viewer: alice, follows: [bob], followers: [], blocks: [], pendingRequests: []), of: alice, readUnder: ticket)
        #expect(memory.statistics.profiles == 2 && memory.statistics.viewers == 1)
        return memory
    }

    @Test("a follow request made or answered forgets the viewers' facts it names, not the profiles (sentFollowRequests, followRequests)")
    func requests() throws {
        for tag in [CacheTags.sentFollowRequests(alice), CacheTags.followRequests(alice)] {
            let memory = try filled()
            memory.apply([DataChange(tag: tag)])
            #expect(memory.statistics.profiles == 2, "\(tag) emptied the profiles")
            #expect(memory.statistics.viewers == 0, "\(tag) kept alice's facts")
        }
    }

    @Test("a profile's change forgets that profile and its facts; a change memory cannot place empties it")
    func profileAndUnknown() throws {
        let memory = try filled()
        memory.apply([DataChange(tag: CacheTags.profile(bob))])
        #expect(memory.statistics.profiles == 1 && memory.statistics.viewers == 1)
        memory.apply([DataChange(tag: "somethingNew:\(alice.lowercased)")])
        #expect(memory.statistics.profiles == 0 && memory.statistics.viewers == 0)
    }

    @Test("a search change forgets the handles known to be free and keeps the taken ones, which check themselves when read")
    func handlesOnSearchChange() throws {
        let memory = try filled()
        let ticket = try #require(memory.ticket())
        memory.keepAbsent(handles: ["free_one"], readUnder: ticket)
        let aliceKey = try #require(BatchGetProfiles.handleKey("h\(alice.uuidString.prefix(6))"))
        func lookup(_ key: String) -> String {
            switch memory.withState({ $0.profile(handleKey: key) }) {
            case .found: "found"
            case .absent: "absent"
            case .unknown: "unknown"
            }
        }
        #expect(lookup("free_one") == "absent" && lookup(aliceKey) == "found")
        memory.apply([DataChange(tag: CacheTags.search)])
        #expect(lookup("free_one") == "unknown", "a handle that may have been taken still read as free")
        #expect(lookup(aliceKey) == "found", "a search change emptied the taken handles (a bio update did, on every write)")
        // A read of a free handle that began before the change is not kept.
        memory.keepAbsent(handles: ["free_one"], readUnder: ticket)
        #expect(lookup("free_one") == "unknown")
        // A handle whose profile now has another one is not answered from its old entry.
        let now = Date()
        memory.keep([Profile(id: alice, handle: "renamed", createdAt: now, updatedAt: now)], readUnder: try #require(memory.ticket()))
        #expect(lookup(aliceKey) == "unknown")
    }
}
