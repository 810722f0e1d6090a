import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

/// A query whose answer depends on its signed-in viewer only through their ``ViewerRelation``
/// to the one profile it reads: a profile card, shared between viewers (issue 41).
///
/// The shape is checked on the document, once per text (``PreparedDocument``): one root field,
/// `profile(handle:)` or `profile(id:)`, and under it only fields whose value is the same for
/// every viewer who sees the profile with the same ``ProfileAccess`` and the same follows
/// between the two; its `followers`/`following` pages may select only what a profile's card
/// shows of each listed profile (a listed private profile is a card to most viewers and whole
/// to its followers: its other fields would differ). No fragments and no directives, so that
/// what is checked is what runs. Anything else keeps the per-viewer key.
///
/// ```swift
/// if let shape = SharedCardShape.of(operation), let key = shape.profileKey(variables: request.variables) { ... }
/// ```
struct SharedCardShape: Sendable, Hashable {
    /// Where the profile's key comes from.
    enum Source: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    let isHandle: Bool
    let source: Source
    /// The `followers`/`following` pages the document reads under the profile, each with its
    /// Relay arguments as written (graph memory computes the page a viewer sees from them, to
    /// key the answer by what the viewer sees: ``GatewayService``'s audience cards).
    let lists: [ListPage]

    /// One `followers` or `following` field and its arguments.
    struct ListPage: Sendable, Hashable {
        let kind: FollowList.Kind
        let first: Argument?
        let after: Argument?
        let last: Argument?
        let before: Argument?
    }

    /// An argument's value as written: a literal, or a variable with the operation's default.
    enum Argument: Sendable, Hashable {
        case literal(JSONValue)
        case variable(String, defaultValue: JSONValue?)

        /// The value for these variables: nil when absent (the argument's own default, none for
        /// the Relay arguments), `.null` for an explicit null.
        func value(_ variables: JSONObject) -> JSONValue? {
            switch self {
            case .literal(let value): value
            case .variable(let name, let defaultValue): variables[name] ?? defaultValue
            }
        }
    }

    /// The fields of the profile itself: its own columns (the card's, or all of them for full
    /// access: ``ProfileAccess`` decides which, and the relation carries it), the follow flags,
    /// and the two lists.
    static let profileFields: Set<String> = [
        "__typename", "id", "handle", "displayName", "bio", "avatarURL", "homeGym", "climbingSince", "favoriteStyle",
        "isPublic", "followerCount", "followingCount", "sendCount", "createdAt", "updatedAt",
        "viewerIsFollowing", "followsViewer", "followers", "following",
    ]
    static let listFields: Set<String> = ["followers", "following"]
    static let connectionFields: Set<String> = ["__typename", "totalCount", "edges", "pageInfo"]
    static let edgeFields: Set<String> = ["__typename", "cursor", "followedAt", "node"]
    /// What every signed-in viewer who may list a profile sees of it (``Profile/card()``).
    static let cardFields: Set<String> = [
        "__typename", "id", "handle", "displayName", "avatarURL", "isPublic", "followerCount", "followingCount",
    ]
    static let pageInfoFields: Set<String> = ["__typename", "hasNextPage", "hasPreviousPage", "startCursor", "endCursor"]

    /// The shape of `operation`, or nil when its answer may depend on more than the relation.
    static func of(_ operation: OperationDefinition) -> SharedCardShape? {
        guard operation.operation == .query, operation.directives.isEmpty,
              operation.selectionSet.selections.count == 1,
              case .field(let root) = operation.selectionSet.selections[0],
              root.name.value == "profile", root.directives.isEmpty, root.arguments.count == 1,
              let selections = root.selectionSet?.selections
        else { return nil }
        let argument = root.arguments[0]
        let isHandle: Bool
        switch argument.name.value {
        case "handle": isHandle = true
        case "id": isHandle = false
        default: return nil
        }
        let source: Source
        switch argument.value {
        case .string(let text): source = .literal(text.value)
        case .variable(let variable): source = .variable(variable.name.value)
        default: return nil
        }
        guard only(profileFields, in: selections, nested: { field in
            guard listFields.contains(field.name.value) else { return field.selectionSet == nil }
            return isConnection(field)
        }) else { return nil }
        var defaults: [String: JSONValue?] = [:]
        for definition in operation.variableDefinitions {
            defaults[definition.variable.name.value] = definition.defaultValue.flatMap(literal)
        }
        var lists: [ListPage] = []
        for selection in selections {
            guard case .field(let field) = selection, listFields.contains(field.name.value) else { continue }
            var arguments: [String: Argument] = [:]
            for argument in field.arguments {
                switch argument.value {
                case .variable(let variable):
                    let name = variable.name.value
                    arguments[argument.name.value] = .variable(name, defaultValue: defaults[name] ?? nil)
                default:
                    // A literal this reading does not know keeps the answer per viewer.
                    guard let value = literal(argument.value) else { return nil }
                    arguments[argument.name.value] = .literal(value)
                }
            }
            guard Set(arguments.keys).isSubset(of: ["first", "after", "last", "before"]) else { return nil }
            lists.append(ListPage(
                kind: field.name.value == "followers" ? .followers : .following, first: arguments["first"],
                after: arguments["after"], last: arguments["last"], before: arguments["before"]))
        }
        return SharedCardShape(isHandle: isHandle, source: source, lists: lists)
    }

    /// The JSON value of an Int, String or null literal (the Relay arguments' types); nil for
    /// anything else.
    private static func literal(_ value: Value) -> JSONValue? {
        switch value {
        case .int(let int): Int(int.value).map(JSONValue.int)
        case .string(let string): .string(string.value)
        case .null: .null
        default: nil
        }
    }

    /// The profile key this request names, or nil when it names none the resolver would load
    /// (a missing variable, a handle that is not valid, an id that is not a UUID).
    func profileKey(variables: JSONObject) -> ProfileKey? {
        let text: String?
        switch source {
        case .literal(let literal): text = literal
        case .variable(let name): text = variables[name]?.stringValue
        }
        guard let text else { return nil }
        if isHandle { return BatchGetProfiles.handleKey(text).map { .handle($0) } }
        return UUID(parsing: text).map { .id($0) }
    }

    private static func isConnection(_ field: Field) -> Bool {
        guard let selections = field.selectionSet?.selections else { return false }
        return only(connectionFields, in: selections) { field in
            switch field.name.value {
            case "edges":
                guard let edges = field.selectionSet?.selections else { return false }
                return only(edgeFields, in: edges) { edge in
                    guard edge.name.value == "node" else { return edge.selectionSet == nil }
                    guard let node = edge.selectionSet?.selections else { return false }
                    return only(cardFields, in: node) { $0.selectionSet == nil && $0.arguments.isEmpty }
                }
            case "pageInfo":
                guard let info = field.selectionSet?.selections else { return false }
                return only(pageInfoFields, in: info) { $0.selectionSet == nil }
            default: return field.selectionSet == nil
            }
        }
    }

    /// Whether every selection is a field without directives named in `allowed`, for which
    /// `nested` holds.
    private static func only(_ allowed: Set<String>, in selections: [Selection], nested: (Field) -> Bool) -> Bool {
        for selection in selections {
            guard case .field(let field) = selection, field.directives.isEmpty, allowed.contains(field.name.value),
                  nested(field)
            else { return false }
        }
        return true
    }
}
