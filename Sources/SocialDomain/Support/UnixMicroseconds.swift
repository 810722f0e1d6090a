import Foundation

/// Conversions between `Date` and integer microseconds since 1970 UTC, the precision both stores
/// keep (Postgres `timestamptz` is microseconds) and the unit of keyset cursors.
public enum UnixMicroseconds {
    /// Rounds to the nearest microsecond.
    public static func from(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    public static func date(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(microseconds) / 1_000_000)
    }

    /// `YYYY-MM-DDThh:mm:ss.ffffff` in UTC followed by `utcDesignator` (`Z` for the API's
    /// `DateTime`, `+00:00` as PostgREST prints a `timestamptz`).
    ///
    /// Plain arithmetic (days to civil date, Howard Hinnant's algorithm) rather than a
    /// `DateFormatter`, which is slow, locale-bound and stops at milliseconds.
    public static func timestamp(_ microseconds: Int64, utcDesignator: String) -> String {
        // Floor division, so times before 1970 count back from the previous second and day.
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Written as ASCII digits into one buffer: this runs for every date of every answer
        // (a card's ten `followedAt`s were 5% of its CPU built from interpolated strings).
        guard (0...9999).contains(year) else {
            func pad(_ value: Int64, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2))"
                + ":\(pad(secondOfDay % 60, 2)).\(pad(fraction, 6))\(utcDesignator)"
        }
        let designator = Array(utcDesignator.utf8)
        return String(unsafeUninitializedCapacity: 26 + designator.count) { buffer in
            var at = 0
            func digits(_ value: Int64, _ width: Int) {
                var value = value
                for i in stride(from: width - 1, through: 0, by: -1) {
                    buffer[at + i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += width
            }
            func byte(_ character: Unicode.Scalar) {
                buffer[at] = UInt8(ascii: character)
                at += 1
            }
            digits(year, 4); byte("-"); digits(month, 2); byte("-"); digits(day, 2); byte("T")
            digits(secondOfDay / 3600, 2); byte(":"); digits(secondOfDay / 60 % 60, 2); byte(":")
            digits(secondOfDay % 60, 2); byte("."); digits(fraction, 6)
            for b in designator { buffer[at] = b; at += 1 }
            return at
        }
    }
}
