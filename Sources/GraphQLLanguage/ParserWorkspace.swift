import Synchronization

/// The reusable memory of one parse: the scratch stacks lists are built on and
/// the table of long strings.
///
/// Both are per-document state, but making them is not free: a dozen objects and
/// their first buffers, about a third of all allocations when parsing a typical
/// 1 KB operation. A parse takes a workspace from a small shared pool and gives it
/// back, emptied, when it ends (by success or by a syntax error), so a server
/// parsing request after request allocates only the AST itself.
///
/// A workspace is used by one parse at a time: it is handed out and taken back
/// under the pool's lock and never shared while in use, hence `@unchecked Sendable`.
final class ParserWorkspace: @unchecked Sendable {
    let scratch = ParserScratch()
    let strings = StringTable()

    deinit { scratch.free() }

    /// Drops what the last parse left (its strings; on an error, its half-built
    /// lists) and any buffer grown past what typical documents need.
    func reset() {
        scratch.reset()
        strings.reset()
    }
}

/// The workspaces not in use, at most ``capacity`` of them (one per core is the
/// common case; more only while more parses run at once).
enum ParserWorkspacePool {
    static let capacity = 16
    private static let idle = Mutex<[ParserWorkspace]>([])

    /// An emptied workspace: a pooled one, or a new one if none is idle.
    static func take() -> ParserWorkspace {
        idle.withLock { $0.popLast() } ?? ParserWorkspace()
    }

    /// How many workspaces are idle, with the items left on their stacks (for tests).
    static var idleState: (workspaces: Int, items: Int) {
        idle.withLock { idle in (idle.count, idle.reduce(0) { $0 + $1.scratch.count }) }
    }

    /// Empties `workspace` and keeps it for the next parse (or lets it go if the pool is full).
    static func give(_ workspace: ParserWorkspace) {
        workspace.reset()
        idle.withLock { idle in
            if idle.count < capacity { idle.append(workspace) }
        }
    }
}
