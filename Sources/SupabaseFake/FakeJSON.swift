import Foundation
import GraphQLEngine

/// The fake's answers as JSON text, written with the gateway's own ``JSONWriter``.
///
/// The fake builds its rows as `[String: Any]`, as PostgREST's JSON would decode. Written by
/// Foundation's `JSONSerialization` (sorted keys, compared through ICU collation), they took 64%
/// of `gateway-benchmarks cache`'s CPU, so its uncached Supabase graph (209 ms) timed mostly the
/// fake; with this writer it takes 100-103 ms. A real PostgREST writes JSON in the database.
/// Keys come out sorted by their UTF-8 bytes, so an answer reads the same every run.
enum FakeJSON {
    static func bytes(_ value: Any) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        write(value, to: &writer)
        return writer.bytes
    }

    private static func write(_ value: Any, to writer: inout JSONWriter) {
        // Exact type checks first: a cast of `Any` to a Foundation class tries bridging, which
        // cost more than the rest of the writer together.
        let kind = type(of: value)
        if kind == String.self {
            writer.writeString(value as! String)
        } else if kind == Int.self {
            writer.writeInt(value as! Int)
        } else if kind == Bool.self {
            writer.writeRaw(value as! Bool ? "true" : "false")
        } else if kind == [String: Any].self {
            let object = value as! [String: Any]
            writer.writeByte(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
                writer.writeString(key)
                writer.writeByte(UInt8(ascii: ":"))
                write(object[key]!, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "}"))
        } else if kind == [Any].self || kind == [[String: Any]].self || kind == [String].self {
            writer.writeByte(UInt8(ascii: "["))
            for (index, item) in (value as! [Any]).enumerated() {
                if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
                write(item, to: &writer)
            }
            writer.writeByte(UInt8(ascii: "]"))
        } else if kind is NSNumber.Type {
            // Numbers parsed from request bodies: objCType says what they hold (a cast to Bool or
            // Int would also accept 0 and 1 of the other kind).
            let number = value as! NSNumber
            switch String(cString: number.objCType) {
            case "c", "B": writer.writeRaw(number.boolValue ? "true" : "false")
            case "f", "d": writer.writeDouble(number.doubleValue)
            default: writer.writeInt(number.intValue)
            }
        } else if kind is NSNull.Type {
            writer.writeRaw("null")
        } else {
            switch value {
            case let double as Double: writer.writeDouble(double)
            case let int as Int64: writer.writeInt(Int(int))
            case let int as Int32: writer.writeInt(Int(int))
            case let string as String: writer.writeString(string)   // a Substring-backed or bridged one
            case let object as [String: Any]: write(object, to: &writer)
            case let array as [Any]: write(array, to: &writer)
            default:
                // An optional: its value, or null.
                let mirror = Mirror(reflecting: value)
                guard mirror.displayStyle == .optional else { fatalError("SupabaseFake: cannot write \(kind) as JSON") }
                if let wrapped = mirror.children.first?.value { write(wrapped, to: &writer) } else { writer.writeRaw("null") }
            }
        }
    }
}
