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
}

extension UUID {
    /// The lower-case form used everywhere (paths, SQL, cursors): Postgres and `auth.uid()` print
    /// UUIDs in lower case, and Swift's `uuidString` is upper case.
    public var lowercased: String { uuidString.lowercased() }
}
