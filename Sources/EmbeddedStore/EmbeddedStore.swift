import Foundation
import GRDB
import SocialDomain

/// The default store: profiles, follows, posts, stories and their files in one data folder, so
/// a new user gets a working server with one command.
///
/// One SQLite file (`social.sqlite`, WAL mode through GRDB's `DatabasePool`) with the same
/// tables, constraints and counter rules as the Supabase schema, plus media files under
/// `avatars/` and `stories/` (a `MediaDirectory`). It implements ``ProfileStore``,
/// ``FollowStore``, ``MediaStore`` and the other ports, emulating row-level security by the
/// ``Viewer`` it is given. Every port method is one store call,
/// counted in ``callCounts``; batched reads are single SQL statements.
///
/// ```swift
/// let store = try await EmbeddedStore.open(dataDirectory: URL(fileURLWithPath: "data"), seedDemoData: true)
/// let alice = try await BatchGetProfiles(profiles: store).load(ids: [DemoData.aliceId], viewer: .anonymous)
/// ```
public final class EmbeddedStore: Sendable {
    /// Options with documented defaults.
    public struct Options: Sendable {
        /// Prefix of media URLs: `<publicBaseURL>/avatars/<path>`, `<publicBaseURL>/stories/<path>`.
        public var publicBaseURL: String = "http://127.0.0.1:8080"
        /// Time source for follows and demo data.
        public var clock: any WallClock = SystemClock()
        /// Source of new follow ids.
        public var random: any RandomSource = SystemRandom()
        /// Count executed SQL statements in ``EmbeddedStore/sqlStatementCount`` (tests, metrics).
        public var countStatements: Bool = false
        /// Concurrent readers of the pool.
        public var maximumReaderCount: Int = 4
        /// Receives the detail of store failures that clients only see as `BACKEND_UNAVAILABLE`.
        public var errorLog: (@Sendable (String) -> Void)? = nil
        /// Signs the access tokens of the store's accounts (the gateway's HS256 secret); without
        /// it the account operations answer that accounts are not available.
        public var accessTokens: (any AccessTokenSigner)? = nil
        /// Receives password-reset links (there is no mail to send them with).
        public var passwordResetLog: (@Sendable (_ email: String, _ link: String) -> Void)? = nil

        public init() {}
    }

    public let dataDirectory: URL
    public let options: Options
    let pool: DatabasePool
    /// The connections the ports' reads use, on the calling thread (``read(_:)``).
    let readers: SynchronousReaders
    let counters: StoreCounters
    /// Whether this store holds ``DemoShowcase`` (a served demo folder; never a temporary store),
    /// so the playground may act as its private profile.
    public let servesShowcase: Bool
    /// Set for ``temporary(seedDemoData:options:)`` stores.
    private let removesDataDirectory: Bool

    /// The database file inside the data folder.
    public static let databaseFileName = "social.sqlite"

    /// The most of the database file each connection reads through a memory map (SQLite's
    /// `mmap_size`): beyond it, pages are read with `pread` as before.
    static let memoryMapBytes = 1 << 30

    /// Opens (creating if needed) the store in `dataDirectory`, runs the migrations and, when
    /// `seedDemoData` is true and there are no profiles yet, adds the demo users (``DemoData``).
    /// - Throws: file-system and SQLite errors (the data folder is unusable).
    public static func open(
        dataDirectory: URL, seedDemoData: Bool = true, options: Options = Options()
    ) async throws -> EmbeddedStore {
        try await open(dataDirectory: dataDirectory, seedDemoData: seedDemoData, options: options, temporary: false)
    }

    private static func open(
        dataDirectory: URL, seedDemoData: Bool, options: Options, temporary: Bool
    ) async throws -> EmbeddedStore {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.maximumReaderCount = options.maximumReaderCount
        let counters = StoreCounters()
        let countStatements = options.countStatements
        config.prepareDatabase { db in
            // Pages are read through a shared memory map instead of a read() into each
            // connection's 2 MB page cache: an uncached follower graph touched ~100 pages a
            // request, copied by pread (8% of its server time).
            try db.execute(sql: "PRAGMA mmap_size = \(Self.memoryMapBytes)")
            if countStatements {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { counters.countStatement(statement.sql) }
                }
            }
        }
        let path = dataDirectory.appendingPathComponent(databaseFileName).path
        let pool = try DatabasePool(path: path, configuration: config)
        try EmbeddedSchema.migrator.migrate(pool)
        let readers = try SynchronousReaders(path: path, configuration: config)
        let store = EmbeddedStore(
            dataDirectory: dataDirectory, pool: pool, readers: readers, options: options, counters: counters,
            removesDataDirectory: temporary, servesShowcase: seedDemoData && !temporary)
        if seedDemoData {
            try await store.seedDemoDataIfEmpty()
            if store.servesShowcase { try await store.seedShowcaseIfMissing() }
            try await store.refreshDemoStories()
            try await store.ensureDemoAccounts()
        }
        return store
    }

    private init(
        dataDirectory: URL, pool: DatabasePool, readers: SynchronousReaders, options: Options, counters: StoreCounters,
        removesDataDirectory: Bool, servesShowcase: Bool
    ) {
        self.servesShowcase = servesShowcase
        self.dataDirectory = dataDirectory
        self.pool = pool
        self.readers = readers
        self.options = options
        self.counters = counters
        self.removesDataDirectory = removesDataDirectory
    }

    /// A ``temporary(seedDemoData:options:)`` store's folder goes with the store: test runs
    /// would otherwise leave hundreds of folders behind. (Unlinking a database that is still
    /// open is safe on Linux and macOS; the pool closes right after.)
    deinit {
        if removesDataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// Opens a store in a new temporary folder, removed when the store is released (tests).
    public static func temporary(seedDemoData: Bool = false, options: Options = Options()) async throws -> EmbeddedStore {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("social-gateway-\(UUID().lowercased)", isDirectory: true)
        return try await open(dataDirectory: folder, seedDemoData: seedDemoData, options: options, temporary: true)
    }

    /// How many times each port operation was called since the last reset, by operation name
    /// (``StoreOperation``): proves batching in tests and feeds metrics.
    public var callCounts: [String: Int] { counters.calls() }

    /// SQL statements executed since the last reset (only with ``Options/countStatements``),
    /// not counting transaction control and trigger bodies.
    public var sqlStatementCount: Int { counters.statements() }

    /// Sets both counters back to zero.
    public func resetCounters() { counters.reset() }

    /// Runs a port's read in a read transaction on the calling thread (see ``SynchronousReaders``
    /// for why, and why it is safe). Writes go through ``pool``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try readers.read(body)
    }

    /// Runs one port operation: counts it, and turns any failure that is not a ``DomainError``
    /// into `BACKEND_UNAVAILABLE` (the detail goes to ``Options/errorLog``).
    func call<T>(_ operation: StoreOperation, _ body: () async throws -> T) async throws -> T {
        counters.countCall(operation)
        return try await backend(onFailure: { options.errorLog?("\(operation.rawValue): \($0)") }, body)
    }
}
