import Foundation
import GraphQLEngine
import Hummingbird
import SocialDomain

/// The bundled GraphQL playground at `GET /`: one self-contained HTML file (inline CSS and JS
/// written for this project, no library and no external URL, so it works offline and under the
/// strict policy below). A GraphQL IDE: tabs with query, variables and headers editors
/// (highlighting, bracket matching, comment toggling, a Prettify that ports ``Printer``),
/// completion, hover and a docs explorer from introspection, errors marked as you type by a
/// validator in the page with the gateway's messages, uploads (multipart), batches, copy as curl,
/// history, share links, and in embedded mode an "Act as" picker fed by
/// `GET /playground/demo-tokens`. docs/SERVER.md#playground has the details.
///
/// `/?query=...&variables=...&autorun=1&as=handle` opens the query in a tab and runs it at once
/// (links from docs, and the headless-browser tests); the result is written into `#result`.
struct Playground: Sendable {
    let html: [UInt8]
    let issuer: DevTokenIssuer?
    /// Who `/playground/demo-tokens` signs for (the backend's demo users).
    let demoUsers: [DemoUser]

    /// Loads the page from the module's resources.
    /// - Throws: ``ConfigurationError`` when the resource is missing from the build.
    init(issuer: DevTokenIssuer?, demoUsers: [DemoUser]) throws {
        guard let url = Bundle.module.url(forResource: "playground", withExtension: "html"),
              let data = FileManager.default.contents(atPath: url.path)
        else {
            throw ConfigurationError("the playground page is missing from the GatewayServer resources")
        }
        html = Array(data)
        self.issuer = issuer
        self.demoUsers = demoUsers
    }

    /// The page, with a policy that forbids loading anything from elsewhere.
    func page(_ request: Request, context: GatewayRequestContext) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy:
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
                .cacheControl: "no-cache",
                .contentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: html)))
    }

    /// `{"users":[{"handle","displayName","id","token"}]}`: one-hour tokens for the demo users,
    /// signed with the dev secret. Only for a backend with demo users (404 otherwise).
    func demoTokens(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        guard let issuer else { throw GatewayHTTPError.notFound }
        var users: [JSONValue] = []
        for user in demoUsers {
            let token = try await issuer.token(for: user.id, ttl: 3600)
            users.append(
                .object([
                    "handle": .string(user.handle), "displayName": .string(user.displayName),
                    "id": .string(user.id.lowercased), "token": .string(token),
                ]))
        }
        var writer = JSONWriter()
        writer.write(.object(["users": .array(users)]))
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }
}
