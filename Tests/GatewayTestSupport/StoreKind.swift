/// The stores the gateway's suites run against: each end-to-end test runs once per case.
///
/// ```swift
/// @Test("...", arguments: StoreKind.allCases)
/// func queries(_ kind: StoreKind) async throws { ... }
/// ```
public enum StoreKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `EmbeddedStore` on a fresh SQLite file in a temporary folder.
    case embedded
    /// `SupabaseStore` talking HTTP to a `SupabaseFake` on 127.0.0.1, whose database is one of
    /// the test PostgreSQL server's (the fake runs the migrations' SQL).
    case supabase
    /// `PostgresStore` on a fresh database of the test PostgreSQL server (``PostgresTestDatabase``),
    /// with every migration and the real RLS policies.
    case postgres

    /// Every kind this run can start: PostgreSQL and Supabase (whose fake runs on PostgreSQL) only
    /// when `SOCIAL_GATEWAY_TEST_POSTGRES` names a server (`scripts/test` starts one and sets it).
    public static var allCases: [StoreKind] {
        PostgresTestDatabase.serverURL == nil ? [.embedded] : [.embedded, .supabase, .postgres]
    }

    public var description: String { rawValue }
}
