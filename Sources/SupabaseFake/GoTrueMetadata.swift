import Foundation

/// A PATCH body's columns, as PostgREST sees them: every key sent (an unknown or ungranted one
/// is refused, so the keys themselves matter, which an argument type that ignores unknown keys
/// cannot tell), and each value's kind. A key sent as `null` clears its column; an absent key
/// keeps it, so the difference is kept too.
struct FakeColumnUpdates: Decodable {
    enum Value {
        case null, text(String), flag(Bool), texts([String]), other
    }

    var values: [String: Value]

    var columns: [String] { values.keys.sorted() }

    /// The column's text: nil when not sent, `.some(nil)` when sent as null or not as text.
    func text(_ column: String) -> String?? {
        guard let value = values[column] else { return nil }
        if case .text(let text) = value { return .some(text) }
        return .some(nil)
    }

    func flag(_ column: String) -> Bool? {
        if case .flag(let flag)? = values[column] { return flag }
        return nil
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var values: [String: Value] = [:]
        for key in container.allKeys {
            values[key.stringValue] =
                if try container.decodeNil(forKey: key) { .null }
                else if let text = try? container.decode(String.self, forKey: key) { .text(text) }
                else if let flag = try? container.decode(Bool.self, forKey: key) { .flag(flag) }
                else if let texts = try? container.decode([String].self, forKey: key) { .texts(texts) }
                else { .other }
        }
        self.values = values
    }

    init() { values = [:] }
}

/// The one-key bodies the stores send as `[String: String]` (`{"target": ...}`, `{"handle": ...}`)
/// and `viewer_likes`' `{"post_ids": [...]}`.
struct FakeTarget: Decodable { var target: String }
struct FakeHandle: Decodable { var handle: String }
struct FakePostIds: Decodable { var post_ids: [String] }

/// `{"requests": [...]}`, the batch argument of `post_pages` and `comment_pages`.
struct FakeRequests<Item: Decodable>: Decodable { var requests: [Item] }
