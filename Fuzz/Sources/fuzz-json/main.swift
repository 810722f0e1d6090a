import FuzzSupport
import GraphQLEngine
import GraphQLLanguage

/// The JSON parser on any bytes, under the server's value limit, then variable coercion:
/// - what parses writes back to JSON that parses to the same value (numbers compared as JSON
///   numbers: `-0.5e10` is written `-5000000000`, which parses back as an integer), and writing
///   that again gives the same text;
/// - an object is coerced as the variables of an operation declaring one variable of every
///   kind of input type (§6.1.2), and the request executes to a well-formed response.
let operationText = """
    query Fuzz($id: ID!, $ids: [ID!]!, $first: Int = 20, $query: String!, $kinds: [Kind!], $scale: Float,
               $flag: Boolean, $input: EchoInput, $values: [[String]], $by: Lookup, $maybe: ID) {
      profile(id: $maybe, handle: $query) { id handle kind }
      profiles(ids: $ids) { id }
      search(query: $query, first: $first, kinds: $kinds) { __typename }
      node(id: $id) { id }
      echo(input: $input, values: $values, scale: $scale, flag: $flag)
      oneOf(by: $by)
    }
    """
let operationSource = Source(operationText)
let operation = try! Document(parsing: operationSource)

func fuzzJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let bytes = Fuzz.bytes(data, count)
    guard let value = try? JSONParser.parse(bytes, maxValues: 10_000) else { return 0 }
    let written = JSONWriter.string(value)
    guard let again = try? JSONParser.parse(written), sameJSON(again, value), JSONWriter.string(again) == written else {
        Fuzz.fail("JSON did not survive writing: \(written)", input: String(decoding: bytes, as: UTF8.self))
    }
    if case .object(let variables) = value {
        ExecutionFixture.run(operation, source: operationSource, variables: variables, input: written)
    }
    return 0
}

/// Equality of JSON values, where an integer and a double of the same number are the same number.
func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.int(let i), .double(let d)), (.double(let d), .int(let i)): return Double(i) == d
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
    case (.object(let x), .object(let y)):
        return x.keys == y.keys && zip(x.values, y.values).allSatisfy { sameJSON($0, $1) }
    default: return a == b
    }
}

ExecutionFixture.prepare()
Fuzz.run(fuzzJSON)
