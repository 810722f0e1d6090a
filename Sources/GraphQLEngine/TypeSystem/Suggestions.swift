/// graphql-js's `suggestionList`, `didYouMean` and `naturalCompare` (`src/jsutils/`), so that
/// "Did you mean ...?" in schema, validation and coercion messages matches graphql-js v16.
///
/// ```swift
/// let hint = Suggestions.didYouMean(Suggestions.list("nam", ["name", "id"]))  // ` Did you mean "name"?`
/// ```
public enum Suggestions {
    /// Options within a lexical distance of `⌊0.4·input.count⌋ + 1`, nearest first,
    /// ties in natural order.
    public static func list(_ input: String, _ options: some Sequence<String>) -> [String] {
        let inputLower = input.lowercased()
        let inputScalars = Array(inputLower.unicodeScalars)
        let threshold = input.utf16.count * 2 / 5 + 1
        var scored: [(String, Int)] = []
        for option in options {
            if option == input {
                scored.append((option, 0))
                continue
            }
            let optionLower = option.lowercased()
            if optionLower == inputLower {
                scored.append((option, 1))
                continue
            }
            if let d = distance(Array(optionLower.unicodeScalars), inputScalars, threshold: threshold) {
                scored.append((option, d))
            }
        }
        scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : naturalCompare($0.0, $1.0) < 0 }
        return scored.map(\.0)
    }

    /// Optimal string alignment distance, or nil above `threshold`.
    private static func distance(_ a0: [Unicode.Scalar], _ b0: [Unicode.Scalar], threshold: Int) -> Int? {
        var a = a0, b = b0
        if a.count < b.count { swap(&a, &b) }
        if a.count - b.count > threshold { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: 3)
        for j in 0...b.count { rows[0][j] = j }
        if a.isEmpty { return b.count <= threshold ? b.count : nil }
        for i in 1...a.count {
            let up = rows[(i - 1) % 3]
            var current = rows[i % 3]
            current[0] = i
            var smallest = i
            if b.count > 0 {
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(up[j] + 1, current[j - 1] + 1, up[j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        value = min(value, rows[(i - 2) % 3][j - 2] + 1)
                    }
                    current[j] = value
                    smallest = min(smallest, value)
                }
            }
            rows[i % 3] = current
            if smallest > threshold { return nil }
        }
        let d = rows[a.count % 3][b.count]
        return d <= threshold ? d : nil
    }

    /// ` Did you mean "A", "B", or "C"?` (at most five), with an optional sub-message
    /// such as `to use an inline fragment on`; "" when there is nothing to suggest.
    public static func didYouMean(_ suggestions: [String]) -> String { didYouMean(nil, suggestions) }

    public static func didYouMean(_ subMessage: String?, _ suggestions: [String]) -> String {
        guard !suggestions.isEmpty else { return "" }
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
        switch quoted.count {
        case 1: return message + quoted[0] + "?"
        case 2: return message + quoted[0] + " or " + quoted[1] + "?"
        default: return message + quoted.dropLast().joined(separator: ", ") + ", or " + quoted.last! + "?"
        }
    }

    /// graphql-js's `naturalCompare`: digit runs compare as numbers ("a2" < "a10").
    public static func naturalCompare(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf16), y = Array(b.utf16)
        var i = 0, j = 0
        func isDigit(_ c: UInt16) -> Bool { c >= 48 && c <= 57 }
        while i < x.count && j < y.count {
            var ca = x[i], cb = y[j]
            if isDigit(ca) && isDigit(cb) {
                var na = 0
                repeat {
                    i += 1
                    na = na &* 10 &+ Int(ca - 48)
                    ca = i < x.count ? x[i] : 0
                } while isDigit(ca) && na > 0
                var nb = 0
                repeat {
                    j += 1
                    nb = nb &* 10 &+ Int(cb - 48)
                    cb = j < y.count ? y[j] : 0
                } while isDigit(cb) && nb > 0
                if na != nb { return na < nb ? -1 : 1 }
            } else {
                if ca != cb { return ca < cb ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        return x.count - y.count
    }
}
