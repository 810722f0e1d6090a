import Testing
@testable import SocialDomain

@Suite("UnixMicroseconds: RFC 3339 text of exact microseconds")
struct UnixMicrosecondsTests {
    @Test("timestamps print in UTC with six fraction digits, before and after 1970, on leap days")
    func timestamps() {
        #expect(UnixMicroseconds.timestamp(0, utcDesignator: "Z") == "1970-01-01T00:00:00.000000Z")
        #expect(UnixMicroseconds.timestamp(-1, utcDesignator: "Z") == "1969-12-31T23:59:59.999999Z")
        #expect(UnixMicroseconds.timestamp(1_740_000_000_123_456, utcDesignator: "+00:00") == "2025-02-19T21:20:00.123456+00:00")
        #expect(UnixMicroseconds.timestamp(1_709_208_000_000_001, utcDesignator: "Z") == "2024-02-29T12:00:00.000001Z")
        #expect(UnixMicroseconds.timestamp(-62_135_596_800_000_000, utcDesignator: "Z") == "0001-01-01T00:00:00.000000Z")
    }
}
