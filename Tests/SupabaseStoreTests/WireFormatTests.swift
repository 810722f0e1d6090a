import Foundation
import SocialDomain
import SupabaseFake
import SupabaseSchema
import Testing
@testable import SupabaseStore

@Suite("PostgREST wire formats")
struct WireFormatTests {
    @Test("timestamps keep every microsecond and honour the offset")
    func timestamps() {
        #expect(SupabaseTimestamp.microseconds("2025-03-02T10:11:12.345678+00:00") == 1_740_910_272_345_678)
        #expect(SupabaseTimestamp.microseconds("2025-03-02T12:11:12.345678+02:00") == 1_740_910_272_345_678)
        #expect(SupabaseTimestamp.microseconds("2025-03-02T10:11:12Z") == 1_740_910_272_000_000)
        #expect(SupabaseTimestamp.microseconds("2025-03-02 10:11:12.5+00") == 1_740_910_272_500_000)
        #expect(SupabaseTimestamp.microseconds("1969-12-31T23:59:59.999999+00:00") == -1)
        #expect(SupabaseTimestamp.microseconds("2025-03-02T10:11:12.1234567+00:00") == nil)
        #expect(SupabaseTimestamp.microseconds("2025-03-02T10:11:12") == nil)
    }

    @Test("+ in a value is sent as %2B, quotes and spaces are encoded, in.(...) operands are quoted when reserved")
    func queryEncoding() {
        #expect(PostgRESTQuery.encode([("created_at", "lt.2025-03-02T10:11:12.345678+00:00")])
            == "created_at=lt.2025-03-02T10:11:12.345678%2B00:00")
        #expect(PostgRESTQuery.inList(["a,b", "plain", "say \"hi\""]) == #"in.("a,b",plain,"say \"hi\"")"#)
        #expect(PostgRESTQuery.encode([("handle", PostgRESTQuery.inList(["a b&c=d"]))]) == "handle=in.(%22a%20b%26c%3Dd%22)")
    }

    @Test("handle lookups with reserved characters survive the fake's PostgREST-style decoding")
    func reservedHandleRoundTrip() async throws {
        try await StoreHarness.run { h in
            let found = try await h.store.profiles(handles: ["alice_wonder", "x,y+z"], viewer: .anonymous)
            #expect(Array(found.keys) == ["alice_wonder"])
            #expect(h.fake.requests[0].query.hasSuffix("&handle_lower=in.(alice_wonder,%22x,y%2Bz%22)"))
        }
    }
}
