import GraphQLEngine
import GraphQLLanguage

/// A field selection with the type it was selected on and its definition there.
struct FieldAndDef {
    let parentType: GraphQLNamedType?
    let field: Field
    let def: GraphQLField?
}

/// The fields of a selection set by response name (in first-seen order) and the
/// fragments it spreads directly — graphql-js's `FieldsAndFragmentNames`.
final class FieldsAndFragments {
    var keys: [String] = []
    var groups: [[FieldAndDef]] = []
    var index: [String: Int] = [:]
    var fragmentNames: [String] = []

    func group(_ key: String) -> [FieldAndDef]? { index[key].map { groups[$0] } }
}

/// A field map compared with a fragment, in one exclusivity.
struct FieldsAndFragmentKey: Hashable {
    let map: ObjectIdentifier
    let fragment: String
    let mutuallyExclusive: Bool
}

/// Why two fields conflict: a sentence, or the conflicts of their subfields.
indirect enum ConflictReason {
    case message(String)
    case subfields([(String, ConflictReason)])

    /// graphql-js's `reasonMessage`.
    var text: String {
        switch self {
        case .message(let m): return m
        case .subfields(let list):
            return list.map { "subfields \"\($0.0)\" conflict because \($0.1.text)" }.joined(separator: " and ")
        }
    }
}

struct FieldConflict {
    let responseName: String
    let reason: ConflictReason
    let fields1: [SourceRange]
    let fields2: [SourceRange]
}

/// §5.3.2 FieldsInSetCanMerge, as graphql-js's `OverlappingFieldsCanBeMergedRule`
/// implements it: fields of each selection set are grouped by response name and
/// compared only within a group; the fields of each selection set and fragment are
/// collected once (cached), and each pair of fragments is compared once per
/// exclusivity (the `PairSet`).
///
/// Beyond graphql-js: a group of more than ``dedupeThreshold`` fields is first split
/// into classes of identical fields (same parent type, same printed field), and only
/// classes are compared, so 1,000 repetitions of one field cost 1,000 steps rather
/// than 500,000 comparisons. Identical fields can never conflict with each other.
final class FieldConflictFinder {
    let context: ValidationContext
    private var cache: [Int: FieldsAndFragments] = [:]
    private var fragmentCache: [String: FieldsAndFragments] = [:]
    /// (a, b) with a < b → whether compared as mutually exclusive.
    private var comparedFragmentPairs: [String: [String: Bool]] = [:]
    /// The (field map, fragment, exclusivity) triples compared already, as graphql-js 16.9's
    /// `comparedFieldsAndFragmentPairs`: without it a fragment that spreads itself inside its own
    /// subfields (`fragment F on T { child { ...F child { ...F } } }`, invalid but validated in
    /// the same pass as NoFragmentCycles) is expanded without end, and the stack overflows
    /// (found by the `execute` fuzzer). Field maps are cached per selection set, so the triples
    /// are finite.
    private var comparedFieldsAndFragments: Set<FieldsAndFragmentKey> = []
    /// Maps of a document without source ranges (built in code, not parsed), which cannot be
    /// cached by range: kept alive so that their identifiers stay unique.
    private var uncached: [FieldsAndFragments] = []
    private let cachesBySelectionSet: Bool
    static let dedupeThreshold = 8

    init(context: ValidationContext) {
        self.context = context
        cachesBySelectionSet = context.document.range.end > 0
    }

    // MARK: Entry point

    func findConflictsWithinSelectionSet(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> [FieldConflict] {
        var conflicts: [FieldConflict] = []
        let map = fieldsAndFragmentNames(parentType, selectionSet)
        collectConflictsWithin(&conflicts, map)
        let names = map.fragmentNames
        for i in names.indices {
            collectConflictsBetweenFieldsAndFragment(&conflicts, false, map, names[i])
            for j in (i + 1)..<names.count {
                collectConflictsBetweenFragments(&conflicts, false, names[i], names[j])
            }
        }
        return conflicts
    }

    // MARK: Collecting

    private func fieldsAndFragmentNames(_ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet) -> FieldsAndFragments {
        let key = selectionSet.range.start << 32 | selectionSet.range.end
        if cachesBySelectionSet, let cached = cache[key] { return cached }
        let result = FieldsAndFragments()
        var seenFragments: Set<String> = []
        collect(parentType, selectionSet, result, &seenFragments)
        // Kept either way: a freed map's identifier could be reused by a new one, and the
        // compared-triples memo must never mistake one map for another.
        if cachesBySelectionSet { cache[key] = result } else { uncached.append(result) }
        return result
    }

    private func referencedFieldsAndFragmentNames(_ fragment: FragmentDefinition) -> FieldsAndFragments {
        if let cached = fragmentCache[fragment.name.value] { return cached }
        let type = context.schema.type(named: fragment.typeCondition.name.value)
        let result = fieldsAndFragmentNames(type, fragment.selectionSet)
        fragmentCache[fragment.name.value] = result
        return result
    }

    private func collect(
        _ parentType: GraphQLNamedType?, _ selectionSet: SelectionSet, _ result: FieldsAndFragments,
        _ seenFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                // graphql-js looks up only the type's own fields here (no meta-fields).
                let def = parentType?.field(named: field.name.value)
                let key = field.responseKey
                if let i = result.index[key] {
                    result.groups[i].append(FieldAndDef(parentType: parentType, field: field, def: def))
                } else {
                    result.index[key] = result.keys.count
                    result.keys.append(key)
                    result.groups.append([FieldAndDef(parentType: parentType, field: field, def: def)])
                }
            case .fragmentSpread(let spread):
                if seenFragments.insert(spread.name.value).inserted { result.fragmentNames.append(spread.name.value) }
            case .inlineFragment(let inline):
                let type = inline.typeCondition.map { context.schema.type(named: $0.name.value) } ?? parentType
                collect(type, inline.selectionSet, result, &seenFragments)
            }
        }
    }

    // MARK: Pair bookkeeping

    private func hasCompared(_ a: String, _ b: String, _ mutuallyExclusive: Bool) -> Bool {
        let (k1, k2) = a < b ? (a, b) : (b, a)
        guard let recorded = comparedFragmentPairs[k1]?[k2] else { return false }
        return mutuallyExclusive ? true : recorded == mutuallyExclusive
    }

    private func addCompared(_ a: String, _ b: String, _ mutuallyExclusive: Bool) {
        let (k1, k2) = a < b ? (a, b) : (b, a)
        comparedFragmentPairs[k1, default: [:]][k2] = mutuallyExclusive
    }

    // MARK: Comparing

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [FieldConflict], _ mutuallyExclusive: Bool, _ map: FieldsAndFragments, _ fragmentName: String
    ) {
        guard !context.isAborted, let fragment = context.fragment(named: fragmentName) else { return }
        let memo = FieldsAndFragmentKey(map: ObjectIdentifier(map), fragment: fragmentName, mutuallyExclusive: mutuallyExclusive)
        guard comparedFieldsAndFragments.insert(memo).inserted else { return }
        let map2 = referencedFieldsAndFragmentNames(fragment)
        if map === map2 { return }
        collectConflictsBetween(&conflicts, mutuallyExclusive, map, map2)
        for referenced in map2.fragmentNames {
            if hasCompared(referenced, fragmentName, mutuallyExclusive) { continue }
            addCompared(referenced, fragmentName, mutuallyExclusive)
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, map, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [FieldConflict], _ mutuallyExclusive: Bool, _ name1: String, _ name2: String
    ) {
        if name1 == name2 || context.isAborted { return }
        if hasCompared(name1, name2, mutuallyExclusive) { return }
        addCompared(name1, name2, mutuallyExclusive)
        guard let fragment1 = context.fragment(named: name1), let fragment2 = context.fragment(named: name2) else {
            return
        }
        let map1 = referencedFieldsAndFragmentNames(fragment1)
        let map2 = referencedFieldsAndFragmentNames(fragment2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, map1, map2)
        for referenced in map2.fragmentNames {
            collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, referenced)
        }
        for referenced in map1.fragmentNames {
            collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, referenced, name2)
        }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ mutuallyExclusive: Bool, _ parentType1: GraphQLNamedType?, _ selectionSet1: SelectionSet,
        _ parentType2: GraphQLNamedType?, _ selectionSet2: SelectionSet
    ) -> [FieldConflict] {
        var conflicts: [FieldConflict] = []
        let map1 = fieldsAndFragmentNames(parentType1, selectionSet1)
        let map2 = fieldsAndFragmentNames(parentType2, selectionSet2)
        collectConflictsBetween(&conflicts, mutuallyExclusive, map1, map2)
        for name2 in map2.fragmentNames {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, map1, name2)
        }
        for name1 in map1.fragmentNames {
            collectConflictsBetweenFieldsAndFragment(&conflicts, mutuallyExclusive, map2, name1)
        }
        for name1 in map1.fragmentNames {
            for name2 in map2.fragmentNames {
                collectConflictsBetweenFragments(&conflicts, mutuallyExclusive, name1, name2)
            }
        }
        return conflicts
    }

    private func collectConflictsWithin(_ conflicts: inout [FieldConflict], _ map: FieldsAndFragments) {
        for (key, fields) in zip(map.keys, map.groups) where fields.count > 1 {
            if fields.count > Self.dedupeThreshold {
                compareClasses(&conflicts, false, key, fields, fields)
                continue
            }
            for i in fields.indices {
                for j in (i + 1)..<fields.count {
                    if context.isAborted { return }
                    if let conflict = findConflict(false, key, fields[i], fields[j]) { conflicts.append(conflict) }
                }
            }
        }
    }

    private func collectConflictsBetween(
        _ conflicts: inout [FieldConflict], _ mutuallyExclusive: Bool, _ map1: FieldsAndFragments,
        _ map2: FieldsAndFragments
    ) {
        for (key, fields1) in zip(map1.keys, map1.groups) {
            guard let fields2 = map2.group(key) else { continue }
            if fields1.count * fields2.count > Self.dedupeThreshold * Self.dedupeThreshold {
                compareClasses(&conflicts, mutuallyExclusive, key, fields1, fields2)
                continue
            }
            for field1 in fields1 {
                for field2 in fields2 {
                    if context.isAborted { return }
                    if let conflict = findConflict(mutuallyExclusive, key, field1, field2) {
                        conflicts.append(conflict)
                    }
                }
            }
        }
    }

    /// Compares two large lists of fields class by class (identical fields form a class):
    /// a pair of classes is compared once, and only conflicting classes are expanded
    /// to their members' pairs. Pairs within one class are skipped.
    private func compareClasses(
        _ conflicts: inout [FieldConflict], _ mutuallyExclusive: Bool, _ key: String, _ fields1: [FieldAndDef],
        _ fields2: [FieldAndDef]
    ) {
        var classIDs: [String: Int] = [:]
        func classes(_ fields: [FieldAndDef]) -> [(id: Int, members: [Int])] {
            var result: [(id: Int, members: [Int])] = []
            var position: [Int: Int] = [:]
            for (i, field) in fields.enumerated() {
                let signature = (field.parentType?.name ?? "") + "\u{0}" + Printer.print(Selection.field(field.field))
                let id = classIDs[signature] ?? classIDs.count
                classIDs[signature] = id
                if let p = position[id] {
                    result[p].members.append(i)
                } else {
                    position[id] = result.count
                    result.append((id, [i]))
                }
            }
            return result
        }
        let same = fields1.count == fields2.count && zip(fields1, fields2).allSatisfy { $0.field.range == $1.field.range }
        let classes1 = classes(fields1)
        let classes2 = same ? classes1 : classes(fields2)
        for (a, class1) in classes1.enumerated() {
            for (b, class2) in classes2.enumerated() {
                if context.isAborted { return }
                if class1.id == class2.id || (same && b <= a) { continue }
                guard findConflict(mutuallyExclusive, key, fields1[class1.members[0]], fields2[class2.members[0]]) != nil
                else { continue }
                for i in class1.members {
                    for j in class2.members {
                        if let conflict = findConflict(mutuallyExclusive, key, fields1[i], fields2[j]) {
                            conflicts.append(conflict)
                        }
                    }
                }
            }
        }
    }

    /// Whether two fields with one response name can be merged (§5.3.2 SameResponseShape
    /// and FieldsInSetCanMerge), or why not.
    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ field1: FieldAndDef, _ field2: FieldAndDef
    ) -> FieldConflict? {
        var mutuallyExclusive = parentFieldsAreMutuallyExclusive
        if !mutuallyExclusive, let p1 = field1.parentType, let p2 = field2.parentType, p1 != p2,
            case .object = p1, case .object = p2
        {
            mutuallyExclusive = true
        }
        let node1 = field1.field, node2 = field2.field
        if !mutuallyExclusive {
            if node1.name.value != node2.name.value {
                return FieldConflict(
                    responseName: responseName,
                    reason: .message("\"\(node1.name.value)\" and \"\(node2.name.value)\" are different fields"),
                    fields1: [node1.range], fields2: [node2.range])
            }
            if !sameArguments(node1.arguments, node2.arguments) {
                return FieldConflict(
                    responseName: responseName, reason: .message("they have differing arguments"),
                    fields1: [node1.range], fields2: [node2.range])
            }
        }
        // graphql-js 17: one response key cannot be both streamed and not, or streamed two ways.
        if !sameStream(node1.directives, node2.directives) {
            return FieldConflict(
                responseName: responseName, reason: .message("they have differing stream directives"),
                fields1: [node1.range], fields2: [node2.range])
        }
        let type1 = field1.def?.type, type2 = field2.def?.type
        if let type1, let type2, type1.conflicts(with: type2) {
            return FieldConflict(
                responseName: responseName,
                reason: .message("they return conflicting types \"\(type1)\" and \"\(type2)\""),
                fields1: [node1.range], fields2: [node2.range])
        }
        guard let set1 = node1.selectionSet, let set2 = node2.selectionSet else { return nil }
        let sub = findConflictsBetweenSubSelectionSets(
            mutuallyExclusive, type1?.namedType, set1, type2?.namedType, set2)
        guard !sub.isEmpty else { return nil }
        return FieldConflict(
            responseName: responseName, reason: .subfields(sub.map { ($0.responseName, $0.reason) }),
            fields1: [node1.range] + sub.flatMap(\.fields1), fields2: [node2.range] + sub.flatMap(\.fields2))
    }

    /// Both without `@stream`, or both with the same arguments (graphql-js 17's `sameStreams`).
    private func sameStream(_ a: [Directive], _ b: [Directive]) -> Bool {
        let stream1 = a.first { $0.name.value == "stream" }, stream2 = b.first { $0.name.value == "stream" }
        guard let stream1, let stream2 else { return stream1 == nil && stream2 == nil }
        return sameArguments(stream1.arguments, stream2.arguments)
    }

    private func sameArguments(_ a: [Argument], _ b: [Argument]) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { arg1 in
            b.contains { $0.name.value == arg1.name.value && sameValue($0.value, arg1.value) }
        }
    }
}
