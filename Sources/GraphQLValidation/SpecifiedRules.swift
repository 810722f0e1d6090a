/// The rules of §5 (GraphQL, September 2025 edition), in the order the spec states
/// them, each with its section and graphql-js's name.
///
/// All rules run in parallel in one traversal, so errors come in document order;
/// two errors on the same node come in this list's order. (graphql-js's
/// `specifiedRules` array orders them differently, which only matters for two
/// different errors on one node.)
enum SpecifiedRules {
    static let all: [(section: String, rule: ValidationRule.Type)] = [
        ("5.1.1 Executable Definitions", ExecutableDefinitionsRule.self),
        ("5.2.1.1 Operation Type Existence", KnownOperationTypesRule.self),
        ("5.2.2.1 Operation Name Uniqueness", UniqueOperationNamesRule.self),
        ("5.2.3.1 Lone Anonymous Operation", LoneAnonymousOperationRule.self),
        ("5.2.4.1 Single Root Field", SingleFieldSubscriptionsRule.self),
        ("5.3.1 Field Selections", FieldsOnCorrectTypeRule.self),
        ("5.3.2 Field Selection Merging", OverlappingFieldsCanBeMergedRule.self),
        ("5.3.3 Leaf Field Selections", ScalarLeafsRule.self),
        ("5.4.1 Argument Names", KnownArgumentNamesRule.self),
        ("5.4.2 Argument Uniqueness", UniqueArgumentNamesRule.self),
        ("5.4.3 Required Arguments", ProvidedRequiredArgumentsRule.self),
        ("5.5.1.1 Fragment Name Uniqueness", UniqueFragmentNamesRule.self),
        ("5.5.1.2 Fragment Spread Type Existence (and variable types)", KnownTypeNamesRule.self),
        ("5.5.1.3 Fragments on Object, Interface or Union Types", FragmentsOnCompositeTypesRule.self),
        ("5.5.1.4 Fragments Must Be Used", NoUnusedFragmentsRule.self),
        ("5.5.2.1 Fragment Spread Target Defined", KnownFragmentNamesRule.self),
        ("5.5.2.2 Fragment Spreads Must Not Form Cycles", NoFragmentCyclesRule.self),
        ("5.5.2.3 Fragment Spread Is Possible", PossibleFragmentSpreadsRule.self),
        ("5.6.1, 5.6.2, 5.6.4 Values of Correct Type, Input Object Field Names, Required Fields", ValuesOfCorrectTypeRule.self),
        ("5.6.3 Input Object Field Uniqueness", UniqueInputFieldNamesRule.self),
        ("5.7.1, 5.7.2 Directives Are Defined, in Valid Locations", KnownDirectivesRule.self),
        ("5.7.3 Directives Are Unique per Location", UniqueDirectivesPerLocationRule.self),
        ("5.8.1 Variable Uniqueness", UniqueVariableNamesRule.self),
        ("5.8.2 Variables Are Input Types", VariablesAreInputTypesRule.self),
        ("5.8.3 All Variable Uses Defined", NoUndefinedVariablesRule.self),
        ("5.8.4 All Variables Used", NoUnusedVariablesRule.self),
        ("5.8.5 All Variable Usages Are Allowed", VariablesInAllowedPositionRule.self),
        // Incremental delivery (graphql-spec's rfcs/DeferStream.md, graphql-js 17), not in the
        // September 2025 edition: they only restrict documents that use @defer or @stream.
        ("RFC DeferStream: labels static and unique", DeferStreamDirectiveLabelRule.self),
        ("RFC DeferStream: not on a mutation's or subscription's root", DeferStreamDirectiveOnRootFieldRule.self),
        ("RFC DeferStream: not in subscriptions", DeferStreamDirectiveOnValidOperationsRule.self),
        ("RFC DeferStream: @stream on list fields", StreamDirectiveOnListFieldRule.self),
    ]
}
