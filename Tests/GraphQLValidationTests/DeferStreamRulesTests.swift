import GraphQLEngine
import Testing

/// graphql-js 17's test schema for the incremental delivery rules, with the two directives.
private let deferSchema = buildSchema("""
    directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
    directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD
    type Message { body: String sender: String messages: [Message] }
    type Dog { name: String nickname: String }
    type QueryRoot { message: Message dog: Dog pets: [Dog] name: String }
    type MutationRoot { mutationField: Message mutationListField: [Message] }
    type SubscriptionRoot { subscriptionField: Message subscriptionListField: [Message] }
    schema { query: QueryRoot mutation: MutationRoot subscription: SubscriptionRoot }
    """)

private func check(_ query: String) -> [ExpectedError] { validate(query, schema: deferSchema) }

/// The rules the incremental delivery RFC adds (graphql-js 17's, with its messages and locations).
@Suite("Incremental delivery: the validation rules of @defer and @stream")
struct DeferStreamRulesTests {
    @Test("DeferStreamDirectiveLabelRule: labels are static strings, unique across @defer and @stream")
    func labels() {
        #expect(check(#"{ dog { ... @defer(label: "a") { name } } pets @stream(label: "b") { name } }"#).isEmpty)
        let same = """
            {
              dog {
                ...dogFragmentA @defer(label: "fragA")
                ...dogFragmentB @defer(label: "fragA")
              }
            }
            fragment dogFragmentA on Dog { name }
            fragment dogFragmentB on Dog { nickname }
            """
        #expect(
            check(same) == [
                error(
                    "Value for arguments \"defer(label:)\" and \"stream(label:)\" must be unique across all Defer/Stream directive usages.",
                    (3, 21), (4, 21))
            ])
        #expect(
            check("query ($label: String!) { pets @stream(initialCount: 1, label: $label) { name } }") == [
                error("Argument \"@stream(label:)\" must be a static string.", (1, 32))
            ])
    }

    @Test("DeferStreamDirectiveOnRootFieldRule: not on a mutation's or a subscription's root type")
    func rootFields() {
        #expect(check("{ ... @defer { message { body } } }").isEmpty)
        #expect(check("mutation { mutationField { ... @defer { body } } }").isEmpty)
        #expect(
            check("mutation {\n  ... @defer {\n    mutationField { body }\n  }\n}") == [
                error("Defer directive cannot be used on root mutation type \"MutationRoot\".", (2, 7))
            ])
        #expect(
            check("mutation { mutationListField @stream { body } }") == [
                error("Stream directive cannot be used on root mutation type \"MutationRoot\".", (1, 30))
            ])
        #expect(
            check("subscription { ... @defer(if: false) { subscriptionField { body } } }") == [
                error("Defer directive cannot be used on root subscription type \"SubscriptionRoot\".", (1, 20))
            ])
    }

    @Test("DeferStreamDirectiveOnValidOperationsRule: not in a subscription unless its if can be false")
    func subscriptions() {
        #expect(
            check("subscription { subscriptionField { ...F @defer } } fragment F on Message { body }") == [
                error(
                    "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`.",
                    (1, 41))
            ])
        #expect(
            check("subscription { subscriptionField { messages @stream { body } } }") == [
                error(
                    "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.",
                    (1, 45))
            ])
        // In a fragment a subscription spreads, even when the fragment comes first.
        #expect(
            check("fragment F on Message { messages @stream { body } } subscription { subscriptionField { ...F } }") == [
                error(
                    "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`.",
                    (1, 34))
            ])
        #expect(check("subscription { subscriptionField { ...F @defer(if: false) } } fragment F on Message { body }").isEmpty)
        #expect(check("subscription ($d: Boolean!) { subscriptionField { ... @defer(if: $d) { body } } }").isEmpty)
        // The same fragment deferred in a query is fine.
        #expect(check("{ message { ...F @defer } } fragment F on Message { body }").isEmpty)
    }

    @Test("StreamDirectiveOnListFieldRule: @stream only on list fields")
    func listFields() {
        #expect(check("{ pets @stream(initialCount: 0) { name } }").isEmpty)
        #expect(
            check("{ dog @stream(initialCount: 0) { name } }") == [
                error("Directive \"@stream\" cannot be used on non-list field \"QueryRoot.dog\".", (1, 7))
            ])
    }

    @Test("§5.3.2 with @stream: one response key streamed two ways, or streamed and not, cannot merge")
    func overlappingStreams() {
        let message = "Fields \"pets\" conflict because they have differing stream directives. Use different aliases on the fields to fetch both if this was intentional."
        #expect(check("{ pets @stream(initialCount: 1) { name } pets @stream(initialCount: 1) { name } }").isEmpty)
        #expect(check("{ pets @stream(initialCount: 1) { name } pets { name } }") == [error(message, (1, 3), (1, 42))])
        #expect(
            check("{ pets @stream(initialCount: 1) { name } pets @stream(initialCount: 2) { name } }") == [
                error(message, (1, 3), (1, 42))
            ])
    }
}
