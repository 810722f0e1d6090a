import Testing

@Suite("§5.2.4.1 Single Root Field")
struct SingleFieldSubscriptionsRuleTests {
    @Test("§5.2.4.1 one root field, directly or through a fragment, is valid")
    func valid() {
        #expect(validate("subscription sub {\n  newMessage {\n    body\n    sender\n  }\n}").isEmpty)
        let viaFragment = """
            subscription sub {
              ...newMessageFields
            }

            fragment newMessageFields on Subscription {
              newMessage {
                body
                sender
              }
            }
            """
        #expect(validate(viaFragment).isEmpty)
    }

    @Test("§5.2.4.1 counter-example: a second root field is rejected at the extra field")
    func secondField() {
        let query = """
            subscription sub {
              newMessage {
                body
                sender
              }
              disallowedSecondRootField
            }
            """
        #expect(validate(query) == [error("Subscription \"sub\" must select only one top level field.", (6, 3))])
    }

    @Test("§5.2.4.1 counter-example: a second root field through a fragment is rejected")
    func secondFieldInFragment() {
        let query = """
            subscription sub {
              ...multipleSubscriptions
            }

            fragment multipleSubscriptions on Subscription {
              newMessage {
                body
                sender
              }
              disallowedSecondRootField
            }
            """
        #expect(validate(query) == [error("Subscription \"sub\" must select only one top level field.", (10, 3))])
    }

    @Test("§5.2.4.1 a subscription that collects no field is rejected too, beside the fragment cycle")
    func noField() {
        // CollectSubscriptionFields visits A once and finds no field: the map has no entry, not "exactly one".
        let query = """
            subscription NoField {
              ...A
            }
            fragment A on Subscription {
              ...A
            }
            """
        #expect(
            validate(query) == [
                error("Subscription \"NoField\" must select only one top level field.", (1, 1)),
                error("Cannot spread fragment \"A\" within itself.", (5, 3)),
            ])
        // An inline fragment on a type that does not apply collects nothing either.
        #expect(
            validate("subscription { ... on Query { dog { name } } }") == [
                error("Anonymous Subscription must select only one top level field.", (1, 1)),
                error(
                    "Fragment cannot be spread here as objects of type \"Subscription\" can never be of type \"Query\".",
                    (1, 16)),
            ])
    }

    @Test("§5.2.4.1 counter-example: @skip and @include at the root are rejected")
    func skipInclude() {
        let query = """
            subscription requiredRuntimeValidation($bool: Boolean!) {
              newMessage @include(if: $bool) {
                body
                sender
              }
              disallowedSecondRootField @skip(if: $bool)
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Subscription \"requiredRuntimeValidation\" must not use `@skip` or `@include` directives in the top level selection.",
                    (2, 14), (6, 29))
            ])
    }

    @Test("§5.2.4.1 the locations graphql-js 17 reports: one directive per selection, @skip first, none inside a fragment that has one")
    func skipIncludeLocations() {
        // graphql-js collects the root fields with `forbidSkipAndInclude`: a selection's @skip is
        // reported (its @include only when it has no @skip), and a fragment that carries one is
        // not collected, so what it contains is never looked at (graphql-core 3.3 agrees).
        let query = """
            subscription sub($b: Boolean!) {
              newMessage @skip(if: $b) @include(if: $b) { body }
              ... @include(if: $b) { disallowedSecondRootField @skip(if: $b) }
            }
            """
        #expect(
            validate(query) == [
                error(
                    "Subscription \"sub\" must not use `@skip` or `@include` directives in the top level selection.",
                    (2, 14), (3, 7))
            ])
    }

    @Test("§5.2.4.1 counter-example: an introspection root field is rejected")
    func introspection() {
        #expect(
            validate("subscription sub {\n  __typename\n}") == [
                error("Subscription \"sub\" must not select an introspection top level field.", (2, 3))
            ])
    }

    @Test("§5.2.4.1 anonymous subscriptions are named so in the message")
    func anonymous() {
        #expect(
            validate("subscription { newMessage { body } disallowedSecondRootField }") == [
                error("Anonymous Subscription must select only one top level field.", (1, 36))
            ])
    }
}
