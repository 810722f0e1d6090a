import Foundation

/// GoTrue's `data` object (sign-up metadata, `PUT /user`'s settings): every key sent and the
/// kind of its value, since GoTrue keeps text and Boolean settings as they came.
struct GoTrueMetadata: Decodable {
    enum Value {
        case null, text(String), flag(Bool), other
    }

    var values: [String: Value]

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
                else { .other }
        }
        self.values = values
    }
}
