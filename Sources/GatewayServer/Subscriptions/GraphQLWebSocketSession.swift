import Foundation
import GraphQLEngine
import HummingbirdWebSocket
import Logging
import NIOWebSocket
import SocialDomain
import SocialGateway

/// One WebSocket connection speaking `graphql-transport-ws`
/// (https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md).
///
/// The client's `connection_init` carries its token (or the upgrade request's `Authorization`
/// header does); the server acknowledges, then runs each `subscribe` as a live subscription (or,
/// for a query or mutation, answers once) until `complete` from either side. The connection
/// closes with the protocol's codes: 4400 for a message it cannot read, 4401 for `subscribe`
/// before the acknowledgement, 4403 for a token refused or expired (and a viewer over their
/// connection limit), 4408 when no `connection_init` came in time, 4409 for an id in use, 4429 for
/// a second `connection_init`; 1000 after ``SocialGateway/SubscriptionLimits/idleTimeoutSeconds``
/// with nothing running (``SocialGateway/SubscriptionLimits/anonymousIdleTimeoutSeconds`` for an
/// anonymous connection; pings and pongs are no operation and extend neither), and 1001 at
/// shutdown after every subscription was completed; 1013 at once when the server's or the
/// address's bound on sockets is reached (``StreamingAdmission``).
///
/// A signed-in connection belongs to its token's session: when it ends (a sign-out, a password
/// change or reset, here or on another replica) the connection closes with 4403, and every
/// operation checks it before it runs. Each operation also passes the 503 gate of HTTP requests
/// (``QueueWaitGate/admitOperation()``): over it, the operation gets an `error` with
/// `SERVER_BUSY`.
struct GraphQLWebSocketSession: Sendable {
    let hub: SubscriptionHub
    let service: GatewayService
    let authenticator: JWTAuthenticator
    let maxJSONValues: Int
    /// The upgrade request's `Authorization` header, used when `connection_init` has no token.
    let upgradeAuthorization: String?
    let clientAddress: String?
    let logger: Logger
    /// Where this connection registers how a shutdown ends it.
    let connections: StreamingConnections
    /// The bounds on sockets not signed in, per address and in total.
    let admission: StreamingAdmission
    /// The 503 gate every operation passes; nil: none refused.
    let queueWait: QueueWaitGate?

    /// The WebSocket subprotocol this session speaks.
    static let subprotocol = "graphql-transport-ws"

    var limits: SubscriptionLimits { hub.limits }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        if let refusal = admission.openSocket(address: clientAddress) {
            await close(outbound, .tryAgainLater, refusal.reason)
            return
        }
        let state = WebSocketSessionState()
        let closer = connections.add { Task { await shutDown(state, outbound) } }
        defer {
            connections.remove(closer)
            state.cancelAll()
            if let viewer = state.heldConnection { hub.releaseConnection(viewer: viewer) }
            if let watcher = state.sessionWatcher { hub.unwatchSession(watcher) }
            admission.closeSocket(address: clientAddress, signedIn: state.heldConnection != nil)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await watch(state, outbound) }
            defer { group.cancelAll() }
            for try await message in inbound.messages(maxSize: limits.maxMessageBytes) {
                guard case .text(let text) = message else {
                    await close(outbound, .invalidMessage, "Invalid message received: binary messages are not part of the protocol")
                    return
                }
                guard await handle(text, state, outbound, &group) else { return }
            }
        }
    }

    /// One client message; false when the connection is closing.
    private func handle(
        _ text: String, _ state: WebSocketSessionState, _ outbound: WebSocketOutboundWriter,
        _ group: inout ThrowingTaskGroup<Void, any Error>
    ) async -> Bool {
        let message: TransportWSMessage
        do {
            message = try TransportWSMessage.parse(text, maxJSONValues: maxJSONValues)
        } catch {
            await close(outbound, .invalidMessage, error.reason)
            return false
        }
        switch message {
        case .connectionInit(let payload):
            guard state.beginInit() else {
                await close(outbound, .tooManyInitialisationRequests, "Too many initialisation requests")
                return false
            }
            let viewer: Viewer
            do {
                viewer = try await authenticator.viewer(authorization: TransportWSMessage.authorization(in: payload) ?? upgradeAuthorization)
            } catch {
                await close(outbound, .forbidden, "Forbidden: \(error.message)")
                return false
            }
            var held: UUID?
            var session: SessionIdentity?
            if let id = viewer.userId {
                guard hub.acquireConnection(viewer: id) else {
                    await close(
                        outbound, .forbidden,
                        "Forbidden: this viewer already holds \(limits.connectionsPerViewer) streaming connections")
                    return false
                }
                held = id
                admission.signedIn(address: clientAddress)
                session = SessionIdentity(viewer: viewer)
            }
            state.acknowledge(viewer: viewer, expiresAt: viewer.token.flatMap(TokenExpiry.of), heldConnection: held, session: session)
            if let session {
                // Its session's end closes it at once, wherever the end was made.
                state.watching(hub.watchSession(session) {
                    Task { await closeEnded(state, outbound) }
                })
                if session.hasEnded(in: endedSessions) {
                    await closeEnded(state, outbound)
                    return false
                }
            }
            return await send(outbound, TransportWSReply.connectionAck)
        case .ping:
            return await send(outbound, TransportWSReply.pong)
        case .pong:
            return true
        case .subscribe(let id, let parameters):
            guard let viewer = state.acknowledgedViewer else {
                await close(outbound, .unauthorized, "Unauthorized")
                return false
            }
            if state.session?.hasEnded(in: endedSessions) == true {
                await closeEnded(state, outbound)
                return false
            }
            guard queueWait?.admitOperation() ?? true else {
                let error = GraphQLError(GatewayHTTPError.overloaded.message, extensions: ["code": .string(GatewayHTTPError.overloaded.code)])
                return await send(outbound, TransportWSReply.error(id: id, errors: Self.errorsJSON([error])))
            }
            switch state.reserve(id, limit: limits.subscriptionsPerConnection) {
            case .duplicate:
                await close(outbound, .subscriberExists, "Subscriber for \(id) already exists")
                return false
            case .full:
                let error = GraphQLError(
                    "This connection already runs \(limits.subscriptionsPerConnection) operations; complete one first.",
                    extensions: ["code": "TOO_MANY_SUBSCRIPTIONS"])
                return await send(outbound, TransportWSReply.error(id: id, errors: Self.errorsJSON([error])))
            case .reserved:
                var request = GatewayRequest(
                    query: parameters.query, operationName: parameters.operationName, variables: parameters.variables,
                    extensions: parameters.extensions, viewer: viewer, clientAddress: clientAddress)
                // A query with @defer or @stream answers in payloads, a `next` each (v0.2, as
                // graphql-ws sends graphql-js 17's incremental results).
                request.incremental = .v0_2
                group.addTask { await serve(id, request, state, outbound) }
                return true
            }
        case .complete(let id):
            state.complete(id)
            return true
        }
    }

    /// Runs one operation of the connection until it ends.
    private func serve(_ id: String, _ request: GatewayRequest, _ state: WebSocketSessionState, _ outbound: WebSocketOutboundWriter) async {
        defer { state.finish(id) }
        switch await hub.subscribe(request) {
        case .started(let subscription):
            guard state.attach(subscription, to: id) else {
                subscription.cancel()
                return
            }
            while true {
                switch await subscription.next() {
                case .next(let body):
                    guard await send(outbound, TransportWSReply.next(id: id, body: body)) else {
                        subscription.cancel()
                        return
                    }
                case .end(.cancelled), .idle:
                    return
                case .end(.completed):
                    _ = await send(outbound, TransportWSReply.complete(id: id))
                    return
                case .end(.failed(let errors)):
                    _ = await send(outbound, TransportWSReply.error(id: id, errors: Self.errorsJSON(errors)))
                    return
                }
            }
        case .refused(let response):
            _ = await send(outbound, TransportWSReply.error(id: id, errors: Self.errors(of: response.body)))
        case .notASubscription:
            let response = await service.execute(request)
            if response.outcome == .executed {
                guard await send(outbound, TransportWSReply.next(id: id, body: response.body)) else { return }
                do {
                    try await response.incremental?.forEach { payload in
                        guard await send(outbound, TransportWSReply.next(id: id, body: payload.body)) else { throw CancellationError() }
                    }
                } catch {
                    return
                }
                _ = await send(outbound, TransportWSReply.complete(id: id))
            } else {
                _ = await send(outbound, TransportWSReply.error(id: id, errors: Self.errors(of: response.body)))
            }
        }
    }

    private var endedSessions: EndedSessions { service.options.endedSessions }

    /// The session of the connection's token ended: every operation ends, the socket closes (4403).
    private func closeEnded(_ state: WebSocketSessionState, _ outbound: WebSocketOutboundWriter) async {
        state.cancelAll()
        await close(outbound, .forbidden, "Forbidden: \(DomainError.sessionExpired.message)")
    }

    /// Closes the connection when its handshake, token or idle time runs out.
    private func watch(_ state: WebSocketSessionState, _ outbound: WebSocketOutboundWriter) async {
        let handshakeDeadline = state.opened + .seconds(limits.handshakeTimeoutSeconds)
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let timers = state.timers
            var wake = now + .seconds(60)
            if !timers.acknowledged {
                if now >= handshakeDeadline {
                    await close(outbound, .initialisationTimeout, "Connection initialisation timeout")
                    return
                }
                // Look again within a second: the acknowledgement starts the idle timer.
                wake = min(wake, handshakeDeadline, now + .seconds(1))
            }
            if let expiresAt = timers.expiresAt {
                let left = expiresAt.timeIntervalSinceNow
                if left <= 0 {
                    // Subscriptions end with the connection; the client reconnects with a new token.
                    await close(outbound, .forbidden, "Forbidden: the token has expired")
                    return
                }
                wake = min(wake, now + .milliseconds(Int64(left * 1000) + 1))
            }
            if let idleSince = timers.idleSince {
                // An anonymous socket can only run queries: one that holds none goes sooner.
                let seconds = timers.anonymous ? limits.anonymousIdleTimeoutSeconds : limits.idleTimeoutSeconds
                let idleTimeout = Duration.seconds(seconds)
                if now >= idleSince + idleTimeout {
                    try? await outbound.close(.normalClosure, reason: "Idle: no operation for \(seconds) s")
                    return
                }
                wake = min(wake, idleSince + idleTimeout)
            }
            try? await Task.sleep(until: wake, clock: .continuous)
        }
    }

    /// A graceful shutdown: every operation gets its `complete`, then the socket closes (1001).
    private func shutDown(_ state: WebSocketSessionState, _ outbound: WebSocketOutboundWriter) async {
        for id in state.cancelAll() { _ = await send(outbound, TransportWSReply.complete(id: id)) }
        try? await outbound.close(.goingAway, reason: "The server is shutting down")
    }

    private func send(_ outbound: WebSocketOutboundWriter, _ text: String) async -> Bool {
        do {
            try await outbound.write(.text(text))
            return true
        } catch {
            return false
        }
    }

    private func close(_ outbound: WebSocketOutboundWriter, _ code: TransportWSClose, _ reason: String) async {
        logger.debug("closing WebSocket", metadata: ["code": "\(code.rawValue)", "reason": "\(reason)"])
        // A close reason is at most 123 bytes (RFC 6455 §5.5).
        var cut = reason
        while cut.utf8.count > 123 { cut.removeLast() }
        try? await outbound.close(WebSocketErrorCode(codeNumber: code.rawValue), reason: cut)
    }

    /// The `errors` array of a response body, for an `error` message.
    static func errors(of body: [UInt8]) -> JSONValue {
        if case .object(let object)? = try? JSONParser.parse(body), let errors = object["errors"] { return errors }
        return errorsJSON([GraphQLError("The operation could not run.", extensions: ["code": "INTERNAL_SERVER_ERROR"])])
    }

    static func errorsJSON(_ errors: [GraphQLError]) -> JSONValue {
        if case .object(let object)? = try? JSONParser.parse(ExecutionResult.requestError(errors).serialized()),
           let list = object["errors"] {
            return list
        }
        return .array([])
    }
}
