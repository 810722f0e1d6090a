import Foundation
import GraphQLLanguage
import Testing

@testable import GraphQLEngine

/// Result coercion of the built-in scalars takes a shortcut for a value of exactly the
/// expected Swift type (`exactly`); every other value goes the general way. Both ways
/// must give the same answers and the same errors.
@Suite("§3.5 built-in scalars: result coercion, exactly typed values and converted ones alike")
struct ScalarSerializationTests {
    final class Base: Sendable {}
    final class Other: Sendable {}

    @Test("a value of exactly the asked type comes back whole; any other type, even a convertible one, does not")
    func exactCast() {
        // A long string lives on the heap: taken out many times, it must stay intact (no over-release).
        let long = String(repeating: "héllo wörld ", count: 20)
        for _ in 0..<10_000 {
            #expect(exactly(long as any Sendable, String.self) == long)
        }
        #expect(exactly(42 as any Sendable, Int.self) == 42)
        #expect(exactly(Int32(42) as any Sendable, Int.self) == nil)
        #expect(exactly(Optional("x") as any Sendable, String.self) == nil)
        #expect(exactly(Substring("x") as any Sendable, String.self) == nil)
        #expect(exactly(1.5 as any Sendable, Double.self) == 1.5)
        #expect(exactly(true as any Sendable, Bool.self) == true)
        let base = Base()
        #expect(exactly(base as any Sendable, Base.self) === base)
        #expect(exactly(Other() as any Sendable, Base.self) == nil)
    }

    private func serialize(_ scalar: GraphQLScalarType, _ value: any Sendable) -> Result<JSONValue, CoercionError> {
        Result { try scalar.coercion.serialize(value) }.mapError { $0 as! CoercionError }
    }

    @Test("§3.5.1 Int: in range it is written, beyond 32 bits it is an error, whatever the Swift type")
    func int() {
        let int = SpecifiedScalars.makeInt()
        #expect(serialize(int, 2_147_483_647) == .success(.int(2_147_483_647)))
        #expect(serialize(int, -2_147_483_648) == .success(.int(-2_147_483_648)))
        #expect(serialize(int, Int32(7)) == .success(.int(7)))
        #expect(serialize(int, Optional(7)) == .success(.int(7)))
        #expect(serialize(int, 3.0) == .success(.int(3)))
        #expect(serialize(int, 2_147_483_648) == .failure(CoercionError("Int cannot represent non 32-bit signed integer value: 2147483648")))
        #expect(serialize(int, Int64(2_147_483_648)) == serialize(int, 2_147_483_648))
        #expect(serialize(int, 1.5) == .failure(CoercionError("Int cannot represent non-integer value: 1.5")))
    }

    @Test("§3.5.2 Float: finite numbers are written, others are errors")
    func float() {
        let float = SpecifiedScalars.makeFloat()
        #expect(serialize(float, 1.5) == .success(.double(1.5)))
        #expect(serialize(float, 2) == .success(.double(2)))
        #expect(serialize(float, Optional(1.5)) == .success(.double(1.5)))
        #expect(serialize(float, Double.infinity) == serialize(float, Optional(Double.infinity)))
        guard case .failure(let error) = serialize(float, Double.nan) else {
            Issue.record("NaN was serialized")
            return
        }
        #expect(error.message.hasPrefix("Float cannot represent non numeric value: "))
    }

    @Test("§3.5.3 String, §3.5.4 Boolean, §3.5.5 ID: exact values and converted ones")
    func stringBooleanID() {
        let string = SpecifiedScalars.makeString()
        #expect(serialize(string, "x") == .success(.string("x")))
        #expect(serialize(string, Optional("x")) == .success(.string("x")))
        #expect(serialize(string, 3) == .success(.string("3")))
        #expect(serialize(string, true) == .success(.string("true")))
        let boolean = SpecifiedScalars.makeBoolean()
        #expect(serialize(boolean, true) == .success(.bool(true)))
        #expect(serialize(boolean, Optional(false)) == .success(.bool(false)))
        #expect(serialize(boolean, 0) == .success(.bool(false)))
        #expect(serialize(boolean, "true") == .failure(CoercionError(#"Boolean cannot represent a non boolean value: "true""#)))
        let id = SpecifiedScalars.makeID()
        #expect(serialize(id, "a1") == .success(.string("a1")))
        #expect(serialize(id, Optional("a1")) == .success(.string("a1")))
        #expect(serialize(id, 12) == .success(.string("12")))
    }

    @Test("§6.4.3 a resolver's parent is read as its exact type, and as a type it converts to")
    func parentCast() async throws {
        let unbound = try SchemaBuilder.build(sdl: "type Query { a: String b: String }")
        var binder = SchemaBinder(schema: unbound)
        binder.bindSync("Query", "a") { info in try info.parent(as: String.self) }
        binder.bindSync("Query", "b") { info in try info.parent(as: (any CustomStringConvertible).self).description }
        let schema = try binder.finish(requireAll: true)
        let result = try await GraphQLEngineTests.run(schema, "{ a b }", root: "root")
        #expect(result.jsonString == #"{"data":{"a":"root","b":"root"}}"#)
        let wrong = try await GraphQLEngineTests.run(schema, "{ a }", root: 1)
        #expect(wrong.errors.map(\.message) == ["Expected a String parent for Query.a, got Int"])
    }
}
