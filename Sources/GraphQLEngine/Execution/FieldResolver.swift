/// How a field gets its value. Bound to the schema at start-up by ``SchemaBinder``.
///
/// The synchronous case is the fast path: a plain read of the parent value runs
/// inline, with no task and no allocation. Async resolvers (store calls, loaders)
/// run concurrently with their siblings.
public enum FieldResolver: Sendable {
    case sync(@Sendable (ResolveInfo) throws -> (any Sendable)?)
    case async(@Sendable (ResolveInfo) async throws -> (any Sendable)?)
}

/// Placeholder so the module compiles before the executor lands.
public struct ResolveInfo: Sendable {}
