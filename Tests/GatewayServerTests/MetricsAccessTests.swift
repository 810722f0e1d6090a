import Foundation
import GatewayAssembly
import GatewayServer
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 51, item 8: `/metrics` is not public on the API port off loopback; it is read there with
/// `METRICS_TOKEN`, or on a listener of its own (`METRICS_PORT`, bound to loopback by default).
@Suite("/metrics access")
struct MetricsAccessTests {
    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0, then closed).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw RawConnectionError.system("bind", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func status(_ client: any TestClientProtocol, authorization: String? = nil) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [:]
        if let authorization { headers[.authorization] = authorization }
        return try await client.execute(uri: "/metrics", method: .get, headers: headers) { $0.status }
    }

    @Test("issue 51: on a loopback address /metrics is served on the API port, as the load scripts read it")
    func loopbackOpen() async throws {
        let gateway = try await TestGateway.make()
        let status = try await gateway.test { client in try await Self.status(client) }
        #expect(status == .ok)
    }

    @Test("issue 51: off loopback the API port does not serve /metrics (404) unless METRICS_TOKEN is sent (401 otherwise)")
    func offLoopback() async throws {
        // The router is tested in process: the host only decides the rule, nothing binds it.
        let closed = try await TestGateway.make { $0.server.host = "0.0.0.0" }
        let closedStatus = try await closed.test { client in try await Self.status(client) }
        #expect(closedStatus == .notFound)
        let token = "metrics-token-0123456789abcdef"
        let guarded = try await TestGateway.make {
            $0.server.host = "0.0.0.0"
            $0.server.metricsToken = token
        }
        let statuses = try await guarded.test { client in
            [
                try await Self.status(client), try await Self.status(client, authorization: "Bearer wrong-token-0123456789abcdef"),
                try await Self.status(client, authorization: "Bearer \(token)"),
            ]
        }
        #expect(statuses == [.unauthorized, .unauthorized, .ok])
    }

    @Test("issue 51: METRICS_PORT serves /metrics on its own loopback listener; the API port then does not")
    func ownPort() async throws {
        let port = try Self.freePort()
        let gateway = try await TestGateway.make { $0.server.metricsPort = port }
        try await gateway.test { client in
            let onAPIPort = try await Self.status(client)
            #expect(onAPIPort == .notFound)
            // The listener starts beside the server: a few tries until it accepts.
            var answer = ""
            for _ in 0..<50 where answer.isEmpty {
                answer = (try? await RawConnection.run {
                    let connection = try RawConnection(port: port)
                    try connection.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    return String(decoding: connection.readToEnd().bytes, as: UTF8.self)
                }) ?? ""
                if answer.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(answer.contains("social_gateway_"))
        }
    }

    @Test("issue 51: METRICS_PORT, METRICS_HOST and METRICS_TOKEN from the environment, and the rule each gives")
    func settings() throws {
        let configuration = try ServerConfiguration.fromEnvironment([
            "HOST": "0.0.0.0", "METRICS_PORT": "9464", "METRICS_HOST": "0.0.0.0", "METRICS_TOKEN": "t0ken",
        ])
        #expect(configuration.metricsPort == 9464)
        #expect(configuration.metricsHost == "0.0.0.0")
        #expect(MetricsAccess(configuration).onAPIPort == .token("t0ken"))
        #expect(MetricsAccess(configuration).onMetricsPort == .token("t0ken"))
        let defaults = try ServerConfiguration.fromEnvironment([:])
        #expect(defaults.metricsPort == nil && defaults.metricsHost == "127.0.0.1" && defaults.metricsToken == nil)
        #expect(MetricsAccess(defaults).onAPIPort == .open)
        #expect(MetricsAccess(try ServerConfiguration.fromEnvironment(["HOST": "0.0.0.0"])).onAPIPort == .closed)
        let ownPort = try ServerConfiguration.fromEnvironment(["METRICS_PORT": "9464"])
        #expect(MetricsAccess(ownPort).onAPIPort == .closed)
        #expect(MetricsAccess(ownPort).onMetricsPort == .open)
    }
}
