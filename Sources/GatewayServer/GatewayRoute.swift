import Hummingbird

/// A route the composition root adds beside the gateway's own (the load-test ceiling route), so
/// that such hooks live with whoever needs them, not in the server.
public struct GatewayRoute: Sendable {
    public var method: HTTPRequest.Method
    public var path: RouterPath
    public var respond: @Sendable (Request, GatewayRequestContext) async throws -> Response

    public init(
        _ method: HTTPRequest.Method, _ path: RouterPath,
        respond: @escaping @Sendable (Request, GatewayRequestContext) async throws -> Response
    ) {
        self.method = method
        self.path = path
        self.respond = respond
    }
}
