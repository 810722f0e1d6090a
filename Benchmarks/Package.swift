// swift-tools-version:6.1
//
// Benchmarks for social-gateway, in their own package so users of the main package never
// build them (nor GraphQLSwift, the peer we measure against in the same run).
//
//   swift run -c release --package-path Benchmarks gateway-benchmarks
//
// `social-gateway` here is a symlink to the repository root: a path dependency's identity is
// its last path component, and the clone's own folder name is not ours to choose.
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "gateway-benchmarks", targets: ["GatewayBenchmarks"])],
    dependencies: [
        .package(path: "social-gateway"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
    ],
    targets: [
        .executableTarget(
            name: "GatewayBenchmarks",
            dependencies: [
                .product(name: "GraphQLLanguage", package: "social-gateway"),
                .product(name: "GraphQLEngine", package: "social-gateway"),
                .product(name: "SocialGateway", package: "social-gateway"),
                .product(name: "ResponseCache", package: "social-gateway"),
                .product(name: "SocialDomain", package: "social-gateway"),
                .product(name: "SocialFixtures", package: "social-gateway"),
                .product(name: "EmbeddedStore", package: "social-gateway"),
                .product(name: "SupabaseStore", package: "social-gateway"),
                .product(name: "SupabaseFake", package: "social-gateway"),
                .product(name: "GraphQL", package: "GraphQL"),
            ]
        )
    ]
)
