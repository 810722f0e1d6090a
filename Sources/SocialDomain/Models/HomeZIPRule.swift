import Foundation

/// The rule for a home ZIP or postal code. Seed 000 stores `homeZIP` as free text and validates
/// nothing; a client still deserves a clear refusal of what no postal code looks like, so the
/// gateway takes what postal codes are made of worldwide: 2 to 10 ASCII letters, digits, spaces
/// or hyphens, a letter or digit first ("80302", "80302-1234", "SW1A 1AA", "K1A 0B1").
public enum HomeZIPRule {
    public static let minLength = 2
    public static let maxLength = 10
    /// Shown as "Invalid home ZIP: <requirement>".
    public static let requirement =
        "Must be 2-10 characters of letters, digits, spaces or hyphens, starting with a letter or digit"

    /// The code as stored: trimmed, nil when nothing is left (no ZIP).
    /// - Throws: ``DomainError`` `BAD_USER_INPUT` (field `homeZIP`) for a code that breaks the rule.
    public static func validated(_ zip: String) throws -> String? {
        let trimmed = zip.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard isValid(trimmed) else {
            throw DomainError.badUserInput("Invalid home ZIP: \(requirement)", field: "homeZIP")
        }
        return trimmed
    }

    public static func isValid(_ zip: String) -> Bool {
        let bytes = Array(zip.utf8)
        guard (minLength...maxLength).contains(bytes.count), let first = bytes.first, isAlphanumeric(first)
        else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == 0x20 || $0 == 0x2D }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
    }
}
