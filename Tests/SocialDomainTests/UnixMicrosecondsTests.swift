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

@Suite("UnixMicroseconds.parse (RFC 3339, exact)")
struct UnixMicrosecondsParseTests {
    @Test("every microsecond, any offset, T/t/space and Z/z; what is not RFC 3339 is nil",
          arguments: [
            ("2026-11-22T14:05:00.123456Z", Int64(1_795_356_300_123_456)),
            ("2026-11-22t14:05:00.123456z", 1_795_356_300_123_456),
            ("2026-11-22 15:05:00.123456+01:00", 1_795_356_300_123_456),
            ("1970-01-01T00:00:01.5+00:00", 1_500_000),
          ])
    func parses(_ text: String, _ expected: Int64) {
        #expect(UnixMicroseconds.parse(text) == expected)
        #expect(UnixMicroseconds.parse(UnixMicroseconds.timestamp(expected, utcDesignator: "Z")) == expected)
    }

    @Test("malformed", arguments: ["2026-11-22", "2026-11-22T14:05:00", "2026-13-01T00:00:00Z", "2026-11-22T14:05:00.1234567Z", "x"])
    func malformed(_ text: String) {
        #expect(UnixMicroseconds.parse(text) == nil)
    }
}
