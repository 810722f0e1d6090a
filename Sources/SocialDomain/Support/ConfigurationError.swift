/// A configuration or start-up problem (a malformed environment variable, an unreachable store,
/// a missing manifest), with a message for the person starting the server.
///
/// One type for every module that reads settings (the server, the stores, the composition root),
/// so a caller catches one error and a test compares one message (issue 55: there were three
/// identical ones).
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
