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
        guard let viewerID = request.viewer.userId else {
            let error = DomainError.unauthenticated(to: .subscribe)
            return refuse(error.message, code: error.code.rawValue)
        }
        // Priced when it starts, against a ceiling of its own (it runs again for every event),
        // and its price spent again for every event delivered (``answer(_:for:)``).
        let cost = service.estimatedCost(prepared, operation, variables: request.variables)
        if let cost, let refusal = service.costRefusal(cost, operation, prepared) { return .refused(refusal) }
        if let cost, let refusal = subscriptionCostRefusal(cost, operation, prepared) { return .refused(refusal) }
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
        var resumeAfter: String?
        switch source.fieldName {
        case "notifications":
            topic = .notifications(viewer: viewerID)
            // issue 54: resume after a cursor (SubscriptionHub+CatchUp.swift)
            if let after = source.arguments.string("after") {
                guard NotificationCursor.decode(after)?.recipient == viewerID else {
                    let error = DomainError.invalidCursor(field: "after")
                    return refuse(error.message, code: error.code.rawValue)
                }
                resumeAfter = after
            }
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
        // A selection whose answer is the same for everyone who may read the post is computed
        // once per post for all of them; each is admitted on their own (``EventAdmission``).
        let audience: SubscriptionAudience =
            topic == .feedPosts && snapshots != nil && SharedEventShape.isShared(operation) ? .mayReadPost : .viewer(viewerID)
        switch register(viewer: request.viewer, topic: topic, operation: operationToRun, cost: cost ?? 1, audience: audience) {
        case .registered(let subscription):
            if let resumeAfter, let refusal = await catchUp(subscription, after: resumeAfter) { return refusal }
            return .started(subscription)
        case .tooMany:
            return refuse(
                "This viewer already holds \(limits.subscriptionsPerViewer) live subscriptions; complete one first.",
                code: "TOO_MANY_SUBSCRIPTIONS")
        case .unavailable:
            return refuse(
                "Live updates are not available right now (the change feed is reconnecting, or the server is stopping); subscribe again in a moment.",
                code: "BACKEND_UNAVAILABLE")
        }
    }

    /// The refusal of a subscription whose selection costs more than
    /// ``SubscriptionLimits/maxCost`` (enforce mode; counted and logged in measure mode).
    private func subscriptionCostRefusal(_ cost: Int, _ operation: OperationDefinition, _ prepared: PreparedDocument) -> GatewayResponse? {
        let limit = limits.maxCost
        guard cost > limit else { return nil }
        let mode = service.options.demandControl.costMode
        service.demandCounters.record(.cost, mode: mode)
        guard mode == .enforce else {
            logger.notice(
                "subscription over its maximum cost (measure mode: not refused)",
                metadata: ["cost": "\(cost)", "subscription_max_cost": "\(limit)"])
            return nil
        }
        let subject = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous subscription"
        return service.requestError([
            GraphQLError(
                "\(subject) has an estimated cost of \(cost), which exceeds the maximum cost of a subscription, \(limit): "
                    + "its selection runs again for every event. Select less, or query the rest when an event arrives.",
                ranges: [operation.range], source: prepared.source,
                extensions: ["code": "QUERY_TOO_COMPLEX", "cost": ["estimated": .int(cost), "max": .int(limit)]])
        ])
    }

    /// What a subscription's transport gets for one queued event.
    enum Answer: Sendable {
        case next([UInt8])
        /// The subscriber may not see it now.
        case skipped
        /// The subscription must end: its session ended, or its read budget is spent.
        case ended(SubscriptionEnd)
    }

    /// The answer to `delivery` for `subscription`: its session is checked first, then the
    /// event's answer is taken from the execution it shares with the other subscriptions of its
    /// ``FanOutKey`` (run at event priority), then its cost is spent from the viewer's reads.
    ///
    /// A subscription of a class audience (``SubscriptionAudience/mayReadPost``) is admitted on
    /// its own first (``EventAdmission``, from the post's audience read once for the fan-out):
    /// refused, it is skipped; admitted, it takes the class's answer; where the audience cannot
    /// say, it is answered on its own.
    func answer(_ delivery: LiveSubscription.Delivery, for subscription: LiveSubscription) async -> Answer {
        if let session = subscription.session, session.hasEnded(in: service.options.endedSessions) {
            return .ended(.sessionEnded)
        }
        let body: [UInt8]?
        if case .mayReadPost = subscription.key.audience, let audience = delivery.audience {
            let author = audience.author
            let known = subscription.viewer.userId == author
                ? nil
                : await audience.value(isFresh: { audienceIsFresh(author, $0) }) { await readAudience(of: author) }
            switch EventAdmission.decide(viewer: subscription.viewer, author: author, known: known) {
            case .refused:
                body = nil
            case .admitted:
                body = await delivery.answer.value(sharesRefusal: false) { await execute(delivery.event, for: subscription) }
            case .unknown:
                body = await execute(delivery.event, for: subscription)
            }
        } else {
            body = await delivery.answer.value { await execute(delivery.event, for: subscription) }
        }
        guard let body else {
            counters.skipped()
            return .skipped
        }
        if let refusal = service.rateLimitRefusal(
            subscription.cost, bucket: .query, viewer: subscription.viewer, clientAddress: nil) {
            return .ended(.rateLimited(cost: subscription.cost, retryAfter: refusal.retryAfterSeconds ?? 1))
        }
        counters.delivered()
        return .next(body)
    }

    /// One execution of `subscription`'s operation for `event`, as its viewer, at event priority.
    private func execute(_ event: SubscriptionEvent, for subscription: LiveSubscription) async -> [UInt8]? {
        counters.executed()
        return await service.executionSlots.withSlot(.event) { () -> [UInt8]? in
            await service.answer(event, operation: subscription.operation, viewer: subscription.viewer)
        }
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
