/// Names close to `input`, best first, as graphql-js's `suggestionList` picks them:
/// within a lexical distance of `floor(0.4 * length) + 1`.
public func suggestionList(_ input: String, _ options: [String]) -> [String] {
    let threshold = Int(Double(input.count) * 0.4) + 1
    let lowerInput = input.lowercased()
    var scored: [(String, Int)] = []
    for option in options {
        let distance = option.lowercased() == lowerInput ? 1 : lexicalDistance(lowerInput, option.lowercased())
        if distance <= threshold { scored.append((option, distance)) }
    }
    return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
}

/// graphql-js's `didYouMean`: ` Did you mean "A", "B", or "C"?`, at most five, or "".
public func didYouMean(_ suggestions: [String], prefix: String = "") -> String {
    guard !suggestions.isEmpty else { return "" }
    let quoted = suggestions.prefix(5).map { prefix + "\"\($0)\"" }
    switch quoted.count {
    case 1: return " Did you mean \(quoted[0])?"
    case 2: return " Did you mean \(quoted[0]) or \(quoted[1])?"
    default: return " Did you mean \(quoted.dropLast().joined(separator: ", ")), or \(quoted.last!)?"
    }
}

/// Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions).
func lexicalDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a == b { return 0 }
    var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { rows[i][0] = i }
    for j in 0...b.count { rows[0][j] = j }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                value = min(value, rows[i - 2][j - 2] + 1)
            }
            rows[i][j] = value
        }
    }
    return rows[a.count][b.count]
}
