/// Exact parsing of RFC 3339 timestamps into integer microseconds since 1970 UTC: the API's
/// `DateTime` arguments and the timestamps PostgREST prints (`2025-03-02T10:11:12.345678+00:00`).
///
/// Foundation's ISO 8601 formatter stops at milliseconds, and a `Date` (a `Double`) cannot
/// round-trip every microsecond; keyset cursors need the exact value. Accepts `T`, `t` or a
/// space, 0-6 fraction digits, `Z`, `z` or `±hh[:mm]`.
///
/// ```swift
/// UnixMicroseconds.parse("1970-01-01T00:00:01.5+00:00")   // 1_500_000
/// ```
extension UnixMicroseconds {
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= b.count, !range.isEmpty else { return nil }
            var n: Int64 = 0
            for i in range {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                n = n * 10 + Int64(b[i] - 0x30)
            }
            return n
        }
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction: Int64 = 0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var digits = 0
            while i < b.count, (0x30...0x39).contains(b[i]) {
                guard digits < 6 else { return nil }
                fraction = fraction * 10 + Int64(b[i] - 0x30)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<6 { fraction *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if i < b.count, b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if i < b.count, b[i] == 0x2B || b[i] == 0x2D {
            let sign: Int64 = b[i] == 0x2D ? -1 : 1
            guard let hours = number(i + 1..<i + 3) else { return nil }
            i += 3
            var minutes: Int64 = 0
            if i < b.count, b[i] == 0x3A {
                guard let m = number(i + 1..<i + 3) else { return nil }
                minutes = m
                i += 3
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1_000_000 + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
