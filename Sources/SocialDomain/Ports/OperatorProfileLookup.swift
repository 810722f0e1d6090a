import Foundation

/// Finding a profile's id by handle whatever its visibility: for operator tools run by whoever
/// owns the store (`social-gateway token`), never for requests, which read profiles through the
/// use cases and so through visibility.
///
/// A port rather than a store's own method so that the tools reach it through the composition
/// root (`GatewayAssembly`), as the server reaches every other port, and never open a store
/// themselves.
public protocol OperatorProfileLookup: Sendable {
    /// The id of the profile with `handle` (any case); nil when there is none.
    func operatorProfileID(forHandle handle: String) async throws -> UUID?
}
