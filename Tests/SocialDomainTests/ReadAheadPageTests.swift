import Testing
@testable import SocialDomain

@Suite("Pages read ahead by one row")
struct ReadAheadPageTests {
    @Test("a page of 2 asks for 3 rows; with 3 it keeps the first 2 and says more follow, with 2 or fewer it says none do")
    func trim() {
        let request = TimePageRequest(limit: 2)
        #expect(request.rowsToFetch == 3)
        let full = request.trim([10, 20, 30])
        #expect(full.rows == [10, 20] && full.hasMore)
        let last = request.trim([10, 20])
        #expect(last.rows == [10, 20] && !last.hasMore)
        let short = request.trim([10])
        #expect(short.rows == [10] && !short.hasMore)
    }

    @Test("every store's page kind reads the same way: paging, sync and search requests share the recipe")
    func everyRequestKind() {
        #expect(PageRequest(limit: 5).rowsToFetch == 6)
        #expect(FollowSyncRequest(sinceMicroseconds: 0, limit: 5).rowsToFetch == 6)
        #expect(SearchQuery(text: "al", limit: 5).rowsToFetch == 6)
        let sync = FollowSyncPage.assemble(request: FollowSyncRequest(sinceMicroseconds: 0, limit: 1), fetched: [])
        #expect(sync.records.isEmpty && !sync.hasNextPage)
    }
}
