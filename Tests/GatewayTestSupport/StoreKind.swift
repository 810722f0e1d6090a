/// The stores the gateway's suites run against: each end-to-end test runs once per case.
///
/// ```swift
/// @Test("...", arguments: StoreKind.allCases)
/// func queries(_ kind: StoreKind) async throws { ... }
/// ```
public enum StoreKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `EmbeddedStore` on a fresh SQLite file in a temporary folder.
    case embedded
    /// `SupabaseStore` talking HTTP to a `SupabaseFake` on 127.0.0.1.
    case supabase

    public var description: String { rawValue }
}
