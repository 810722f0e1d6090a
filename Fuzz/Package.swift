// swift-tools-version:6.1
//
// Coverage-guided fuzzers (libFuzzer) for everything in social-gateway that reads untrusted
// bytes. A package of its own, like Benchmarks/, so users of the main package never build it.
// Build and run one with `scripts/fuzz TARGET SECONDS` (docs/RELIABILITY.md); by hand:
//
//   swift build -c release --package-path Fuzz --scratch-path .build-fuzz \
//     -Xswiftc -sanitize=fuzzer,address --product fuzz-parse
//
// `social-gateway` here is a symlink to the repository root (see Benchmarks/Package.swift).
import PackageDescription

/// The engine's fuzzers need only the dependency-free modules, so they build in minutes; the
/// HTTP ones (multipart, tokens, request bodies) build the whole server with the sanitizers.
let engineTargets = ["fuzz-parse", "fuzz-validate", "fuzz-execute", "fuzz-json", "fuzz-cursor"]
let httpTargets = ["fuzz-multipart", "fuzz-token", "fuzz-request"]

/// The fuzzers link with lld: gold stops with an internal error on the sanitizers' objects.
let linkWithLLD: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v15)],
    products: (engineTargets + httpTargets).map { .executable(name: $0, targets: [$0]) },
    dependencies: [
        .package(path: "social-gateway"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // libFuzzer's driver entry (the fuzzers have main.swift, see FuzzSupport's Fuzz.run).
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "GraphQLLanguage", package: "social-gateway"),
                .product(name: "GraphQLEngine", package: "social-gateway"),
            ]
        ),
        .executableTarget(
            name: "fuzz-parse",
            dependencies: ["FuzzSupport", .product(name: "GraphQLLanguage", package: "social-gateway")],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-validate",
            dependencies: [
                "FuzzSupport",
                .product(name: "GraphQLLanguage", package: "social-gateway"),
                .product(name: "GraphQLEngine", package: "social-gateway"),
            ],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-execute",
            dependencies: [
                "FuzzSupport",
                .product(name: "GraphQLLanguage", package: "social-gateway"),
                .product(name: "GraphQLEngine", package: "social-gateway"),
            ],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-json",
            dependencies: [
                "FuzzSupport",
                .product(name: "GraphQLLanguage", package: "social-gateway"),
                .product(name: "GraphQLEngine", package: "social-gateway"),
            ],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-cursor",
            dependencies: ["FuzzSupport", .product(name: "SocialDomain", package: "social-gateway")],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-multipart",
            dependencies: [
                "FuzzSupport", .product(name: "GatewayServer", package: "social-gateway"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-token",
            dependencies: ["FuzzSupport", .product(name: "GatewayServer", package: "social-gateway")],
            linkerSettings: linkWithLLD
        ),
        .executableTarget(
            name: "fuzz-request",
            dependencies: ["FuzzSupport", .product(name: "GatewayServer", package: "social-gateway")],
            linkerSettings: linkWithLLD
        ),
    ]
)
