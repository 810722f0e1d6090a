import HTTPTypes
import Hummingbird

/// CORS for browser clients on other origins, from an allow-list (`--cors-origin`, `CORS_ORIGINS`).
///
/// An allowed `Origin` gets `Access-Control-Allow-Origin: <origin>` (never `*` with our bearer
/// tokens in play unless `*` is configured) and `Vary: Origin`; a preflight (`OPTIONS` with
/// `Access-Control-Request-Method`) is answered 204 here, with the methods and the headers the
/// gateway reads (including the CSRF preflight headers). Other origins get no CORS headers, so
/// the browser blocks them; same-origin pages such as the playground need none.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let allowedOrigins: Set<String>
    let allowsAny: Bool

    init(allowedOrigins: [String]) {
        self.allowedOrigins = Set(allowedOrigins)
        self.allowsAny = allowedOrigins.contains("*")
    }

    static let allowHeaders =
        "Authorization, Content-Type, Accept, GraphQL-Preflight, Apollo-Require-Preflight, X-Apollo-Operation-Name, X-Request-Id"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = allowsAny || allowedOrigins.contains(origin)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var headers: HTTPFields = [.vary: "Origin"]
            if allowed {
                headers[.accessControlAllowOrigin] = allowsAny ? "*" : origin
                headers[.accessControlAllowMethods] = "GET, POST, OPTIONS"
                headers[.accessControlAllowHeaders] = Self.allowHeaders
                headers[.accessControlMaxAge] = "600"
            }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if allowed {
            response.headers[.accessControlAllowOrigin] = allowsAny ? "*" : origin
            response.headers[.accessControlExposeHeaders] = "X-Request-Id"
            // Added to the answer's own Vary (GraphQL answers vary on Accept-Encoding too).
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
        }
        return response
    }
}
