import GraphQLEngine
import GraphQLLanguage
import Testing

@testable import GraphQLValidation

@Suite("Validator: API, error limit, codes")
struct ValidatorTests {
    let socialSchema = buildSchema(socialSchemaSDL)

    @Test("the benchmark query is valid against the social schema")
    func socialQueryIsValid() {
        #expect(validate(socialQuery, schema: socialSchema).isEmpty)
    }

    @Test("spec errors carry the GRAPHQL_VALIDATION_FAILED code")
    func code() {
        let errors = validateRaw("{ dog { zzz } }")
        #expect(errors.count == 1)
        #expect(errors.first?.extensions == ["code": "GRAPHQL_VALIDATION_FAILED"])
    }

    @Test("maxErrors: after the limit, graphql-js's abort error ends the list")
    func maxErrors() {
        let errors = validate("{ dog { a b c d } }", options: ValidationOptions(maxErrors: 2))
        #expect(
            errors == [
                error("Cannot query field \"a\" on type \"Dog\".", (1, 9)),
                error("Cannot query field \"b\" on type \"Dog\".", (1, 11)),
                ExpectedError(message: "Too many validation errors, error limit reached. Validation aborted.", locations: []),
            ])
    }

    @Test("without a source, errors carry no locations")
    func noSource() throws {
        let document = try Document(parsing: "{ dog { zzz } }")
        let errors = Validator.validate(schema: specSchema, document: document, source: nil)
        #expect(errors.map(\.message) == ["Cannot query field \"zzz\" on type \"Dog\"."])
        #expect(errors.first?.locations == [])
    }

    @Test("every specified rule is listed once, in spec order, then the incremental delivery RFC's")
    func specifiedRules() {
        let names = SpecifiedRules.all.map { String(describing: $0.rule) }
        #expect(names.count == 27 + 4)
        #expect(Set(names).count == names.count)
        #expect(names.first == "ExecutableDefinitionsRule")
        #expect(names[26] == "VariablesInAllowedPositionRule")
        #expect(
            Array(names.suffix(4)) == [
                "DeferStreamDirectiveLabelRule", "DeferStreamDirectiveOnRootFieldRule",
                "DeferStreamDirectiveOnValidOperationsRule", "StreamDirectiveOnListFieldRule",
            ])
    }

    @Test("locations count columns in Unicode scalars on lines with non-ASCII text")
    func nonASCIIColumns() {
        #expect(
            validate("{ findDog(searchBy: { name: \"é🐕\" }) { zzz } }") == [
                error("Cannot query field \"zzz\" on type \"Dog\".", (1, 39))  // 43 if counted in bytes
            ])
    }
}
