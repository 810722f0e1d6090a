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
}
