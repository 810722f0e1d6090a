/// A document that is not valid GraphQL syntax (§2), or that breaks a parser limit.
///
/// The message follows graphql-js's wording ("Syntax Error: Expected Name, found
/// <EOF>.") so tools and people recognise it. `location` points at the offending
/// character; its column counts Unicode scalar values (see ``Source/location(of:)``).
public struct GraphQLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The full message, starting with "Syntax Error: ".
    public let message: String
    /// The UTF-8 byte offset of the offending character.
    public let offset: Int
    /// The 1-based line and column of the offending character.
    public let location: SourceLocation

    public init(message: String, offset: Int, location: SourceLocation) {
        self.message = message
        self.offset = offset
        self.location = location
    }

    public var description: String { "\(message) (\(location))" }
}
