import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

/// Coercion for the schema's custom scalars: `DateTime`, `Date` and `Upload`.
enum GatewayScalars {
    static var all: [String: ScalarCoercion] {
        ["DateTime": dateTime, "Date": date, "Upload": upload]
    }

    /// What a `DateTime` input that is not RFC 3339 is told, as a variable or a literal.
    static let dateTimeInputMessage = "DateTime must be an RFC 3339 string such as \"2026-11-22T14:05:00Z\""

    /// RFC 3339 in UTC with microseconds: `2026-11-22T14:05:00.123456Z`.
    static let dateTime = ScalarCoercion(
        serialize: { value in
            switch value {
            case let date as Date: return .string(RFC3339.format(date))
            case let text as String where RFC3339.isValid(text): return .string(text)
            default: throw CoercionError("DateTime cannot represent value: \(value)")
            }
        },
        parseValue: { value in
            guard case .string(let text) = value, RFC3339.isValid(text) else { throw CoercionError(dateTimeInputMessage) }
            return value
        },
        parseLiteral: { literal, _ in
            guard case .string(let s) = literal, RFC3339.isValid(s.value) else { throw CoercionError(dateTimeInputMessage) }
            return .string(s.value)
        })

    /// What a `Date` input that is not a calendar day is told, as a variable or a literal.
    static let dateInputMessage = "Date must be a calendar date YYYY-MM-DD"

    /// A calendar day: `YYYY-MM-DD`.
    static let date = ScalarCoercion(
        serialize: { value in
            switch value {
            case let day as CalendarDay: return .string(day.description)
            case let text as String where CalendarDay(text) != nil: return .string(text)
            default: throw CoercionError("Date cannot represent value: \(value)")
            }
        },
        parseValue: { value in
            guard case .string(let text) = value, CalendarDay(text) != nil else { throw CoercionError(dateInputMessage) }
            return value
        },
        parseLiteral: { literal, _ in
            guard case .string(let s) = literal, CalendarDay(s.value) != nil else { throw CoercionError(dateInputMessage) }
            return .string(s.value)
        })

    /// The key under which a variable holds a reference to a multipart file.
    static let uploadKey = "$upload"

    /// Files arrive only through multipart requests; the service puts a reference
    /// (`{"$upload": "<map key>"}`) where the `map` says, and the resolver reads the file.
    static let upload = ScalarCoercion(
        serialize: { _ in throw CoercionError("Upload is an input-only scalar") },
        parseValue: { value in
            guard case .object(let object) = value, object.count == 1, object[uploadKey]?.stringValue != nil else {
                throw CoercionError("Upload values must be files sent as a multipart request (GraphQL multipart request spec)")
            }
            return value
        },
        parseLiteral: { _, _ in
            throw CoercionError("Upload values must be files sent as a multipart request (GraphQL multipart request spec)")
        })
}

/// RFC 3339 timestamps without Foundation's formatters (which are slow and locale-bound).
enum RFC3339 {
    /// `Date` -> `YYYY-MM-DDThh:mm:ss.ffffffZ` in UTC.
    static func format(_ date: Date) -> String {
        UnixMicroseconds.timestamp(UnixMicroseconds.from(date), utcDesignator: "Z")
    }

    /// Whether `text` is an RFC 3339 date-time (with `Z` or an offset).
    static func isValid(_ text: String) -> Bool {
        let c = Array(text.utf8)
        guard c.count >= 20 else { return false }
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { $0 < c.count && c[$0] >= 48 && c[$0] <= 57 } }
        guard digits(0..<4), c[4] == 45, digits(5..<7), c[7] == 45, digits(8..<10), c[10] == 84 || c[10] == 116,
            digits(11..<13), c[13] == 58, digits(14..<16), c[16] == 58, digits(17..<19)
        else { return false }
        var i = 19
        if c[i] == 46 {
            i += 1
            let start = i
            while i < c.count, c[i] >= 48, c[i] <= 57 { i += 1 }
            guard i > start else { return false }
        }
        guard i < c.count else { return false }
        if c[i] == 90 || c[i] == 122 { return i + 1 == c.count }
        guard c[i] == 43 || c[i] == 45, i + 6 == c.count, digits((i + 1)..<(i + 3)), c[i + 3] == 58, digits((i + 4)..<(i + 6))
        else { return false }
        return true
    }
}
