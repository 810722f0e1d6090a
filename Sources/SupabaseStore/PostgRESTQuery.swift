import Foundation
import SocialDomain
import SupabaseSchema

/// Builds PostgREST query strings: filter values, `in.(...)` lists, and the percent-encoding.
///
/// Two layers of escaping, in this order (supabase-wire.md §2.4): a value containing one of
/// PostgREST's reserved characters (`,` `.` `:` `(` `)` `"` `\` or a space) is wrapped in double
/// quotes with `"` and `\` backslash-escaped; then the whole value is percent-encoded, keeping
/// only unreserved characters and `( ) , * :` literal. `+` always becomes `%2B`.
///
/// ```swift
/// PostgRESTQuery.inList(["a b", "c"])   // in.("a b",c)
/// PostgRESTQuery.encode([("id", "in.(1,2)")])   // id=in.(1,2)
/// ```
enum PostgRESTQuery {
    /// Characters left as they are in a query name or value.
    static let literal: Set<Character> = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~(),*:")

    static func encode(_ items: [(String, String)]) -> String {
        items.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
    }

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for character in text {
            if literal.contains(character) {
                out.append(character)
            } else {
                for byte in String(character).utf8 { out += String(format: "%%%02X", byte) }
            }
        }
        return out
    }

    /// One filter operand, quoted when PostgREST would otherwise split or misread it.
    static func operand(_ value: String) -> String {
        let reserved: Set<Character> = [",", ".", ":", "(", ")", "\"", "\\", " "]
        guard value.isEmpty || value.contains(where: { reserved.contains($0) }) else { return value }
        var quoted = "\""
        for character in value {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// `in.(a,b,c)` with each operand quoted as needed.
    static func inList(_ values: [String]) -> String {
        "in.(" + values.map(operand).joined(separator: ",") + ")"
    }

    /// The explicit column list of every profile read: it fixes the response shape (and keeps
    /// `handle_lower` out).
    static let profileColumns = ProfileRow.columnNames.joined(separator: ",")
}
