import GraphQLLanguage

/// §5.5.2.2 Fragment Spreads Must Not Form Cycles: "For each fragmentDefinition in the
/// document: let visited be the empty set; DetectFragmentCycles(fragmentDefinition,
/// visited)."
///
/// Why: a cycle would expand forever. Each fragment is searched once (depth-first,
/// as graphql-js does), so the rule is linear in the number of spreads.
final class NoFragmentCyclesRule: ValidationRule {
    override class var hooks: Hooks { .fragmentDefinition }

    private var visited: Set<String> = []
    private var spreadPath: [FragmentSpread] = []
    private var spreadPathIndexByName: [String: Int] = [:]

    override func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        detectCycle(from: fragment)
    }

    private func detectCycle(from fragment: FragmentDefinition) {
        let name = fragment.name.value
        guard visited.insert(name).inserted else { return }
        let spreads = context.fragmentSpreads(ofFragment: fragment)
        if spreads.isEmpty { return }
        spreadPathIndexByName[name] = spreadPath.count
        for spread in spreads {
            let spreadName = spread.name.value
            let cycleIndex = spreadPathIndexByName[spreadName]
            spreadPath.append(spread)
            if let cycleIndex {
                let cyclePath = spreadPath[cycleIndex...]
                let via = cyclePath.dropLast().map { "\"\($0.name.value)\"" }.joined(separator: ", ")
                report(
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    ranges: cyclePath.map(\.range))
            } else if let target = context.fragment(named: spreadName) {
                detectCycle(from: target)
            }
            spreadPath.removeLast()
        }
        spreadPathIndexByName[name] = nil
    }
}
