/// The handle rule of seed 000: `^[a-zA-Z][a-zA-Z0-9_]{2,29}$` (3-30 ASCII characters, a letter
/// first, then letters, digits and underscores). Unique case-insensitively.
public enum HandleRule {
    public static let minLength = 3
    public static let maxLength = 30
    /// Seed 001's reason, shown as "Invalid handle: <reason>".
    public static let requirement =
        "Must be 3-30 characters, start with a letter, and contain only letters, numbers, and underscores"

    public static func isValid(_ handle: String) -> Bool {
        let bytes = Array(handle.utf8)
        guard (minLength...maxLength).contains(bytes.count), let first = bytes.first, isLetter(first)
        else { return false }
        return bytes.dropFirst().allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

extension DomainError {
    /// Seed 001 `invalidHandle(reason:)`: "Invalid handle: <reason>", with the handle rule as the reason.
    public static let invalidHandle = DomainError(.badUserInput, "Invalid handle: \(HandleRule.requirement)", field: "handle")
}
