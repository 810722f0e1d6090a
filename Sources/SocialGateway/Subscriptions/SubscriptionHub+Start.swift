import Foundation
import GraphQLEngine
import GraphQLLanguage
import SocialDomain

/// How a streaming request starts.
public enum SubscriptionStart: Sendable {
    /// A subscription is running: pull its answers with ``LiveSubscription/next()``.
    case started(LiveSubscription)
    /// It could not start: a response with request errors (parse, validation, variables, a
    /// signed-out viewer, a post not visible, live updates unavailable), to send as the
    /// transport's error.
    case refused(GatewayResponse)
    /// The operation is a query or a mutation: the transport runs it with
    /// ``GatewayService/execute(_:)`` and sends one answer.
    case notASubscription
}

extension SubscriptionHub {
    /// Starts a subscription for `request` (§6.2.3.1 CreateSourceEventStream): the document is
    /// parsed and validated as for any request, then its root field becomes a topic.
    public func subscribe(_ request: GatewayRequest) async -> SubscriptionStart {
        let resolved: GatewayService.ResolvedDocument
        switch await service.resolvePersistedQuery(request) {
        case .success(let document): resolved = document
        case .failure(let failure): return .refused(service.requestError([failure.error]))
        }
        let prepared: PreparedDocument
        do throws(GraphQLSyntaxError) {
            prepared = try service.prepare(resolved.text)
        } catch {
            var syntax = GraphQLError(error)
            syntax.extensions = ["code": "GRAPHQL_PARSE_FAILED"]
            return .refused(service.requestError([syntax]))
        }
        if !prepared.errors.isEmpty { return .refused(service.requestError(prepared.errors)) }
        guard let operation = prepared.operation(named: request.operationName) else {
            // Let execution word it (no operation of that name, several without a name).
            return .notASubscription
        }
        guard operation.operation == .subscription else { return .notASubscription }
        func refuse(_ message: String, code: String) -> SubscriptionStart {
            .refused(service.requestError([GraphQLError(message, extensions: ["code": .string(code)])]))
        }
        guard case .user(let viewerID, _) = request.viewer else {
            let error = DomainError.unauthenticated(to: .subscribe)
            return refuse(error.message, code: error.code.rawValue)
        }
        // Priced once, when it starts, as a query: its events are the server's to send, not asks.
        let cost = service.estimatedCost(prepared, operation, variables: request.variables)
        if let cost, let refusal = service.costRefusal(cost, operation, prepared) { return .refused(refusal) }
        if let refusal = service.rateLimitRefusal(
            cost ?? 1, bucket: .query, viewer: request.viewer, clientAddress: request.clientAddress) {
            return .refused(refusal)
        }
        guard seesEveryWrite else {
            return refuse(
                "Subscriptions need the database's change feed, which this server does not have (set DATABASE_URL).",
                code: "BACKEND_UNAVAILABLE")
        }
        let source: SubscriptionSource
        switch Executor.subscriptionSource(
            schema: service.schema,
            request: GraphQLRequest(
                document: prepared.document, source: prepared.source, operationName: request.operationName,
                variables: request.variables))
        {
        case .success(let found): source = found
        case .failure(let refusal):
            return .refused(service.requestError(refusal.errors.map { error in
                var coded = error
                if coded.extensions?["code"] == nil { coded.extensions = ["code": "BAD_USER_INPUT"] }
                return coded
            }))
        }
        let topic: SubscriptionTopic
        switch source.fieldName {
        case "notifications": topic = .notifications(viewer: viewerID)
        case "feedPosts": topic = .feedPosts
        case "postActivity":
            do {
                let post = try PostMutationResolvers.parseID(source.arguments.string("postId"), field: "postId")
                guard try await service.isVisible(post: post, to: request.viewer) else { throw DomainError.postNotFound }
                topic = .postActivity(post: post)
            } catch let error as DomainError {
                return refuse(error.message, code: error.code.rawValue)
            } catch {
                return refuse("The backend is unavailable; try again in a moment.", code: "BACKEND_UNAVAILABLE")
            }
        default:
            return refuse("Subscription.\(source.fieldName) has no event source.", code: "INTERNAL_SERVER_ERROR")
        }
        let operationToRun = SubscriptionOperation(
            document: prepared.document, source: prepared.source, operationName: request.operationName,
            variables: source.variables)
        guard let subscription = register(viewer: request.viewer, topic: topic, operation: operationToRun) else {
            return refuse(
                "Live updates are not available right now (the change feed is reconnecting, or the server is stopping); subscribe again in a moment.",
                code: "BACKEND_UNAVAILABLE")
        }
        return .started(subscription)
    }

    /// The answer to `event` for `subscription`, or nil when the subscriber may not see it now.
    func answer(_ event: SubscriptionEvent, for subscription: LiveSubscription) async -> [UInt8]? {
        let body = await service.executionSlots.withSlot { () -> [UInt8]? in
            await service.answer(event, operation: subscription.operation, viewer: subscription.viewer)
        }
        if body == nil { counters.skipped() } else { counters.delivered() }
        return body
    }
}

extension GatewayService {
    /// Whether the post exists and `viewer` may see it now.
    func isVisible(post: UUID, to viewer: Viewer) async throws -> Bool {
        try await BatchGetPosts(posts: stores.posts).load(ids: [post], viewer: viewer)[post] != nil
    }

    /// Executes a subscription's operation for one event as `viewer`, after checking that they
    /// may see what it is about (``SubscriptionGate``).
    func answer(_ event: SubscriptionEvent, operation: SubscriptionOperation, viewer: Viewer) async -> [UInt8]? {
        let context = RequestContext(
            viewer: viewer, stores: stores, files: [:], batchSize: options.loaderBatchSize, logger: logger,
            accountLimits: options.accountLimits, endedSessions: options.endedSessions)
        guard await SubscriptionGate.admits(event, context) else { return nil }
        let result = await Executor.executeSubscriptionEvent(
            schema: schema,
            request: GraphQLRequest(
                document: operation.document, source: operation.source, operationName: operation.operationName,
                variables: operation.variables, context: context, rootValue: event, maxResponseBytes: options.maxResponseBytes))
        return result.serialized()
    }
}
