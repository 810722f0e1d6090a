import GraphQLEngine
import GraphQLLanguage

/// §5.6.1 Values of Correct Type ("value must be coercible to type"), §5.6.2 Input
/// Object Field Names ("inputFieldDefinition must exist") and §5.6.4 Input Object
/// Required Fields — graphql-js checks all three in `ValuesOfCorrectTypeRule`,
/// including OneOf Input Objects (exactly one field, and not a null literal). A nullable
/// variable for a OneOf field is a variable usage, reported once, by
/// ``VariablesInAllowedPositionRule`` (§5.8.5), as graphql-js 17 does.
///
/// Why: a literal that cannot be coerced would fail every execution. Scalars are
/// checked with the scalar's own `parseLiteral`, so custom scalars apply their rules
/// and the message ends with the scalar's reason, as graphql-js's does.
final class ValuesOfCorrectTypeRule: ValidationRule {
    override class var hooks: Hooks { [.value, .objectField] }

    /// Depth inside a list or object value already reported (its items are skipped).
    private var skipping = 0

    override func enterValue(_ value: Value) {
        if skipping > 0 {
            skipping += 1
            return
        }
        switch value {
        case .variable: return
        case .null(let null):
            if let type = typeInfo.inputType, type.isNonNull {
                report("Expected value of type \"\(type)\", found null.", null.range)
            }
        case .list:
            guard case .list? = typeInfo.parentInputType?.nullable else {
                checkLeaf(value)
                skipping = 1
                return
            }
        case .object(let object):
            guard case .inputObject(let type)? = typeInfo.inputType?.namedType else {
                checkLeaf(value)
                skipping = 1
                return
            }
            checkObject(object, type)
        default:
            checkLeaf(value)
        }
    }

    override func leaveValue(_ value: Value) {
        if skipping > 0 { skipping -= 1 }
    }

    override func enterObjectField(_ field: ObjectField) {
        guard skipping == 0, typeInfo.inputType == nil,
            case .inputObject(let parent)? = typeInfo.parentInputType?.namedType
        else { return }
        let name = field.name.value
        let suggestions = Suggestions.list(name, parent.fields.map(\.name))
        report(
            "Field \"\(name)\" is not defined by type \"\(parent.name)\".\(Suggestions.didYouMean(suggestions))",
            field.range)
    }

    private func checkObject(_ object: ObjectValue, _ type: GraphQLInputObjectType) {
        for field in type.fields where field.isRequired {
            if !object.fields.contains(where: { $0.name.value == field.name }) {
                report(
                    "Field \"\(type.name).\(field.name)\" of required type \"\(field.type)\" was not provided.",
                    object.range)
            }
        }
        guard type.isOneOf else { return }
        // graphql-js keys the fields by name: duplicates count once, the last one wins.
        let names = Set(object.fields.map(\.name.value))
        guard names.count == 1, let last = object.fields.last else {
            report("OneOf Input Object \"\(type.name)\" must specify exactly one key.", object.range)
            return
        }
        if case .null = last.value {
            report("Field \"\(type.name).\(last.name.value)\" must be non-null.", object.range)
        }
    }

    /// graphql-js's `isValidValueNode`: a leaf literal (or a list/object where the
    /// position expects something else) against the expected type.
    private func checkLeaf(_ value: Value) {
        guard let locationType = typeInfo.inputType else { return }
        let named = locationType.namedType
        switch named {
        case .enumType(let enumType):
            let printed = Printer.print(value)
            let suggestions = { Suggestions.didYouMean("the enum value", Suggestions.list(printed, enumType.values.map(\.name))) }
            guard case .enumValue(let literal) = value else {
                report("Enum \"\(enumType.name)\" cannot represent non-enum value: \(printed).\(suggestions())", value.range)
                return
            }
            if enumType.value(named: literal.value) == nil {
                report("Value \"\(printed)\" does not exist in \"\(enumType.name)\" enum.\(suggestions())", value.range)
            }
        case .scalar(let scalar):
            do {
                _ = try scalar.coercion.parseLiteral(value, JSONObject())
            } catch let error as CoercionError {
                report(
                    "Expected value of type \"\(locationType)\", found \(Printer.print(value)); \(error.message)",
                    value.range)
            } catch {
                report(
                    "Expected value of type \"\(locationType)\", found \(Printer.print(value)); \(error)", value.range)
            }
        default:
            report("Expected value of type \"\(locationType)\", found \(Printer.print(value)).", value.range)
        }
    }
}
