import Foundation

/// How a caller names one profile: by id or by handle (case-insensitive).
public enum ProfileKey: Sendable, Hashable {
    case id(UUID)
    case handle(String)

    /// Builds a key from GraphQL's `profile(id:, handle:)`, exactly one of which must be given.
    /// - Throws: ``DomainError`` `BAD_USER_INPUT`.
    public static func from(id: String?, handle: String?) throws -> ProfileKey {
        switch (id, handle) {
        case (let id?, nil): return .id(try parseProfileID(id, field: "id"))
        case (nil, let handle?): return .handle(handle)
        default: throw DomainError.badUserInput("Provide exactly one of id or handle", field: "id")
        }
    }
}

/// Parses a profile id from a client; ids are UUIDs (written lower-case, accepted in any case).
/// - Throws: ``DomainError`` `BAD_USER_INPUT` naming `field`.
public func parseProfileID(_ text: String, field: String) throws -> UUID {
    guard let id = UUID(parsing: text) else {
        throw DomainError.badUserInput("\(field) is not a valid profile id", field: field)
    }
    return id
}
