// swift-tools-version:6.1
//
// A load client for the gateway's GraphQL subscriptions (graphql-transport-ws over WebSocket):
// holds many subscribers on one host and measures the server's memory per subscriber and the
// delivery latency of posts fanned out to them. A package of its own, independent of the
// repository's package, so that it builds in a few minutes:
//
//   swift build -c release --package-path Benchmarks/SubscriptionLoad
//   scripts/subscription-load            # builds it and the gateway, runs the scenarios
//
// It speaks WebSocket with SwiftNIO's own NIOWebSocket rather than swift-websocket's WSClient:
// WSClient links NIOSSL (BoringSSL, minutes of C on this 2-core machine) and runs one task per
// connection, where a plain channel handler per connection on one event loop keeps the client's
// own cost per event small beside the server it measures on the same two cores.
import PackageDescription

let package = Package(
    name: "SubscriptionLoad",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "subscription-load", targets: ["SubscriptionLoad"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "SubscriptionLoad",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
