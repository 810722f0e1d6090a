// swift-tools-version:6.1
//
// social-gateway: a GraphQL gateway over a social domain.
// Module map (see docs/DESIGN.md): GraphQLLanguage <- GraphQLEngine <- GraphQLValidation;
// SocialDomain <- MediaFiles (media files in a folder) and SocialFixtures (demo data, load-test
// graph), which no store owns <- EmbeddedStore / SupabaseStore / PostgresStore, none of which
// imports another; SocialGateway (GraphQL over the domain's ports; owns the cache port and the
// change stream) <- ResponseCache (the SQLite cache) and GatewayServer (HTTP); GatewayAssembly,
// the composition root, is the only module that knows every store and the cache; the
// `social-gateway` executable on top, which opens no store itself. `scripts/check-manifest`
// keeps each target's dependencies equal to what its files import.
import PackageDescription

let package = Package(
    name: "social-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "social-gateway", targets: ["SocialGatewayCLI"]),
        .library(name: "GraphQLLanguage", targets: ["GraphQLLanguage"]),
        .library(name: "GraphQLEngine", targets: ["GraphQLEngine", "GraphQLValidation"]),
        .library(name: "SocialDomain", targets: ["SocialDomain"]),
        // The demo data and the load-test graph as domain values (for the benchmarks' stores).
        .library(name: "SocialFixtures", targets: ["SocialFixtures"]),
        .library(name: "EmbeddedStore", targets: ["EmbeddedStore"]),
        .library(name: "SupabaseStore", targets: ["SupabaseStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "ResponseCache", targets: ["ResponseCache"]),
        .library(name: "SocialGateway", targets: ["SocialGateway"]),
        // The HTTP server, for the fuzzers in Fuzz/ (its request readers take untrusted bytes).
        .library(name: "GatewayServer", targets: ["GatewayServer"]),
        // A local fake of a Supabase project, for tests and benchmarks (not for production use).
        .library(name: "SupabaseFake", targets: ["SupabaseFake"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Spans through the tracing API everywhere; the OpenTelemetry SDK only in the composition
        // root, with the OTLP/HTTP exporter alone (the gRPC one would add grpc-swift to the build).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The GraphQL language: source, tokens, lexer, parser, AST, printer, visitor.
        .target(name: "GraphQLLanguage", exclude: ["README.md"]),
        // The GraphQL engine: type system from SDL, execution, introspection, DataLoader.
        .target(name: "GraphQLEngine", dependencies: ["GraphQLLanguage"], exclude: ["README.md"]),
        // Validation (§5): one rule per file, plus the depth/cost/alias guards.
        .target(name: "GraphQLValidation", dependencies: ["GraphQLLanguage", "GraphQLEngine"], exclude: ["README.md"]),
        // The social domain: models, use cases, ports, domain errors. No I/O.
        .target(name: "SocialDomain", exclude: ["README.md"]),
        // Uploaded media (avatars, story files) as files in a folder, one per kind, for every
        // store without an object store of its own: the embedded store, PostgreSQL without Storage.
        .target(name: "MediaFiles", dependencies: ["SocialDomain"], exclude: ["README.md"]
        ),
        // Data that is the same in every store (demo users, the load-test graph), as domain
        // values: the stores and the Supabase fake load it from here, not from each other.
        .target(name: "SocialFixtures", dependencies: ["SocialDomain"], exclude: ["README.md"]
        ),
        // The default store: the domain's ports on one SQLite file, media files beside it.
        .target(
            name: "EmbeddedStore",
            dependencies: [
                "SocialDomain", "MediaFiles", "SocialFixtures", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["README.md"]
        ),
        // The wire shapes of supabase/migrations (rows, function arguments), read by both stores
        // on that schema: over PostgREST (SupabaseStore) and over SQL (PostgresStore).
        .target(name: "SupabaseSchema", dependencies: ["SocialDomain"], exclude: ["README.md"]),
        // The production store: the domain's ports on Supabase (PostgREST + Storage) over HTTP.
        .target(
            name: "SupabaseStore",
            dependencies: [
                "SocialDomain", "SupabaseSchema",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["README.md"]
        ),
        // The domain's ports on PostgreSQL itself (supabase/migrations applied), each request
        // in one transaction as the caller's role, so the same RLS decides; and the change feed
        // (LISTEN) that keeps every replica's response cache coherent.
        .target(
            name: "PostgresStore",
            dependencies: [
                "SocialDomain", "SupabaseSchema",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["README.md"]
        ),
        // A fake Supabase project (PostgREST + Storage + Auth + JWKS) on 127.0.0.1 for tests and
        // benchmarks: PostgREST's wire over a real PostgreSQL database of supabase/migrations (the
        // rules are the SQL's), the store's exact requests recorded, faults, latency.
        .target(
            name: "SupabaseFake",
            dependencies: [
                "SupabaseStore", "SupabaseSchema", "SocialDomain", "SocialFixtures", "PostgresStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"]
        ),
        // The product's GraphQL service: schema.graphql bound to the use cases through
        // per-request loaders; parse -> validate -> execute. Knows nothing of HTTP.
        .target(
            name: "SocialGateway",
            dependencies: [
                "GraphQLLanguage", "GraphQLEngine", "GraphQLValidation", "SocialDomain",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["README.md"],
            resources: [.copy("Resources/schema.graphql")]
        ),
        // Atomic operations on a counter shared between processes (the cache's generation).
        .target(name: "CSharedCounter", exclude: ["README.md"]),
        // libdeflate, for the response cache's stored bodies and HTTP's compressed answers
        // (Debian: libdeflate-dev).
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        // The SQLite response cache (keys, scopes, tags, LRU eviction, persisted queries): the
        // implementation of SocialGateway's `ResponseCaching` port.
        .target(
            name: "ResponseCache",
            dependencies: [
                "SocialGateway", "CSharedCounter", "CDeflate",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"]
        ),
        // The HTTP server: GraphQL over HTTP, uploads, JWT auth, playground, health, metrics, config.
        // It sees the store only through the domain's ports (a `GatewayBackend`) and the cache
        // not at all: it talks to the service.
        .target(
            name: "GatewayServer",
            dependencies: [
                "SocialGateway", "SocialDomain", "GraphQLEngine", "CDeflate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["README.md"],
            resources: [.copy("Resources/playground.html")]
        ),
        // The composition root: opens the store the settings name (embedded, Supabase or
        // PostgreSQL) and hands the server its ports, and the operator's tools their lookups; the
        // load-test hooks live here too.
        .target(
            name: "GatewayAssembly",
            dependencies: [
                "GatewayServer", "SocialGateway", "SocialDomain", "SocialFixtures", "MediaFiles", "EmbeddedStore",
                "SupabaseStore", "PostgresStore", "ResponseCache",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "SocialGatewayCLI",
            dependencies: [
                "GatewayAssembly", "GatewayServer", "GraphQLEngine", "GraphQLValidation", "GraphQLLanguage", "SocialDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/social-gateway",
            exclude: ["README.md"]
        ),
        .testTarget(name: "GraphQLLanguageTests", dependencies: ["GraphQLLanguage"], exclude: ["Fixtures"]),
        .testTarget(name: "GraphQLEngineTests", dependencies: ["GraphQLEngine", "GraphQLLanguage"], exclude: ["Fixtures"]),
        .testTarget(name: "GraphQLValidationTests", dependencies: ["GraphQLValidation", "GraphQLEngine", "GraphQLLanguage"]),
        .testTarget(name: "SocialDomainTests", dependencies: ["SocialDomain"]),
        .testTarget(
            name: "EmbeddedStoreTests",
            dependencies: ["EmbeddedStore", "SocialDomain", "SocialFixtures", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "CLITests", dependencies: ["SocialGatewayCLI", "ChildProcessTestSupport"]),
        // Running a program from a test without Process.waitUntilExit, within a time limit.
        .target(name: "ChildProcessTestSupport", path: "Tests/ChildProcessTestSupport"),
        // What the gateway's test suites share: the store kinds they run against, each seeded
        // with the demo data and handing out its own viewers.
        .target(
            name: "GatewayTestSupport",
            dependencies: [
                "SocialGateway", "SocialDomain", "SocialFixtures", "MediaFiles", "EmbeddedStore", "SupabaseStore", "SupabaseFake",
                "PostgresStore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/GatewayTestSupport"
        ),
        .testTarget(
            name: "SocialGatewayTests",
            dependencies: [
                "SocialGateway", "SocialDomain", "SocialFixtures", "EmbeddedStore", "GraphQLEngine", "GraphQLLanguage",
                "GraphQLValidation", "ResponseCache", "GatewayTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "GatewayServerTests",
            dependencies: [
                "GatewayAssembly", "GatewayServer", "SocialGateway", "SocialDomain", "SocialFixtures", "EmbeddedStore", "SupabaseFake",
                "ResponseCache", "GraphQLEngine", "CDeflate",
                "GatewayTestSupport", "ChildProcessTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "ResponseCacheTests",
            dependencies: [
                "ResponseCache", "SocialGateway", "CDeflate", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "SocialDomain", "SocialFixtures", "MediaFiles", "GatewayTestSupport", "SocialGateway",
                "ResponseCache", "GatewayServer", "GraphQLEngine", "SupabaseFake",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The store conformance suite (issue 52): every read port of every store against the
        // domain's rule table (SocialRules) on one generated graph, and the embedded store against
        // PostgreSQL on a random one. A target of its own: it compiles in seconds beside the
        // others and links into the same test bundle, so `scripts/test` runs it.
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: ["GatewayTestSupport", "SocialDomain", "SocialFixtures", "SocialGateway"],
            path: "Tests/StoreConformance"
        ),
        .testTarget(
            name: "SupabaseStoreTests",
            dependencies: [
                "SupabaseStore", "SupabaseSchema", "SocialDomain", "SupabaseFake", "SocialFixtures",
            ]
        ),
    ]
)
