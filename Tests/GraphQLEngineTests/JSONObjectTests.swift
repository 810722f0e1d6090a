import GraphQLEngine
import Testing

/// `JSONObject` keeps first-key order with O(1) lookups once large, and `JSONParser` can bound
/// the values it reads: request bodies cost work linear in their size.
@Suite("JSON objects and the value limit")
struct JSONObjectTests {
    @Test("past the index threshold, lookups, replacements and removals agree with the key order")
    func largeObjects() {
        var object = JSONObject()
        let count = 5 * JSONObject.indexThreshold
        for i in 0..<count { object["k\(i)"] = .int(i) }
        #expect(object.count == count)
        #expect(object["k0"] == .int(0) && object["k\(count - 1)"] == .int(count - 1) && object["absent"] == nil)
        object["k3"] = "three"  // a replacement keeps the key's first position
        #expect(object.keys[3] == "k3" && object["k3"] == "three")
        object["k3"] = nil
        #expect(object.count == count - 1 && object["k3"] == nil && object["k4"] == .int(4) && object.keys[3] == "k4")
        for i in 0..<count where i != 3 { object["k\(i)"] = nil }
        #expect(object.isEmpty)
        object["again"] = true
        #expect(object["again"] == true)
    }

    @Test("equality and hashing ignore how an object was built (index or not)")
    func equality() {
        let pairs = (0..<40).map { ("k\($0)", JSONValue.int($0)) }
        var appended = JSONObject()
        for (k, v) in pairs { appended.append(k, v) }
        let assigned = JSONObject(pairs)
        #expect(appended == assigned)
        #expect(appended.hashValue == assigned.hashValue)
        #expect(JSONObject(Array(pairs.reversed())) != assigned)
    }

    @Test("a repeated key in JSON text keeps its first position and its last value, in small and large objects")
    func repeatedKeys() throws {
        let small = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(small.objectValue?.keys == ["a", "b"] && small["a"] == 3)
        let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let large = try JSONParser.parse("{\(members),\"k7\":\"last\"}")
        #expect(large.objectValue?.count == 100 && large.objectValue?.keys[7] == "k7" && large["k7"] == "last")
    }

    @Test("80,000 distinct keys parse, in order, with every key found (the quadratic case of issue #24)")
    func eightyThousandKeys() throws {
        let count = 80_000
        let text = "{" + (0..<count).map { "\"key\($0)\":\($0)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONParser.parse(text).objectValue)
        #expect(object.count == count)
        #expect(object.keys.first == "key0" && object.keys.last == "key\(count - 1)")
        #expect((0..<count).allSatisfy { object["key\($0)"] == .int($0) })
    }

    @Test("a number beyond Double's range is refused with its own message, not read as infinity",
          arguments: ["41111111111E111111", "-1e400", "[1, 2e308]", #"{"x": 1.5e99999}"#])
    func numberOutOfRange(_ text: String) {
        do {
            let value = try JSONParser.parse(text)
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error.message.hasPrefix("Number out of range in JSON"))
        }
    }

    @Test("the largest finite numbers and integers past Int still parse, and write back to the same value")
    func numbersNearTheEdges() throws {
        for text in ["1.7976931348623157e308", "-1.7976931348623157e308", "99999999999999999999", "5e-324"] {
            let value = try JSONParser.parse(text)
            #expect(try JSONParser.parse(JSONWriter.string(value)).doubleValue == value.doubleValue)
        }
    }

    @Test("maxValues counts every value at every level and stops the parse past it")
    func valueLimit() throws {
        // The object, its two members' values (1 and the array), and the array's 3 items: 6 values.
        let text = #"{"a":1,"b":[1,2,3]}"#
        #expect(try JSONParser.parse(text, maxValues: 6) == ["a": 1, "b": [1, 2, 3]])
        do {
            _ = try JSONParser.parse(text, maxValues: 5)
            Issue.record("expected the value limit")
        } catch {
            #expect(error.exceedsValueLimit)
            #expect(error.message == "JSON holds more than 5 values")
        }
        do {
            _ = try JSONParser.parse("{\"a\":", maxValues: 100)
            Issue.record("expected a syntax error")
        } catch {
            #expect(!error.exceedsValueLimit)
        }
    }
}
