import Hummingbird
import NIOCore
import NIOHTTPTypes
import Prometheus
import SocialGateway

/// Refuses a GraphQL request at once (503 `SERVER_BUSY` with `Retry-After: 1`) when it has
/// waited in the server longer than ``maxWait`` before its handler could start: load shedding.
///
/// A request's wait is measured from the moment its head was decoded on the event loop
/// (``RequestArrivalStamp`` writes it into the request) to the moment the `/graphql` handler
/// runs; in between it queues for the cooperative threads behind every other connection's
/// request. On two cores a cached card takes about 150 µs of them, so 1,000 connections wait
/// some 150 ms in turn; 4,000 wait past half a second and, unrefused, their clients give up at
/// their own timeouts with the work done for nothing. A refusal instead costs a header
/// comparison and a small answer, nothing of GraphQL is run, and the client retries after a
/// second (issue 41, part 4; figures in docs/performance/2026-11-28-many-connections.md).
///
/// A request also waits after its handler starts, for an execution slot (``SocialGateway/ExecutionSlots``):
/// the gate sees that wait too. While the longest waiting request there has waited more than
/// the bound, a new one would wait longer still, so it is refused the same way. Subscription
/// events wait in the same slots at a lower priority and never ahead of a request, so their
/// backlog delays only other events (issue 51: an event fan-out made an unrelated query wait
/// 11.3 s, unrefused).
///
/// The operations a WebSocket receives pass the same gate (``admitOperation()``): a socket is not
/// a way around it (issue 51, item 4).
///
/// Only `/graphql` passes the gate: health, readiness and metrics are always answered.
/// Refusals are counted in `social_gateway_shed_requests_total`. `MAX_QUEUE_WAIT` sets the bound
/// (seconds; 0 turns shedding off).
///
/// ```swift
/// try gate.admit(request)   // throws GatewayHTTPError.overloaded
/// ```
struct QueueWaitGate: Sendable {
    /// The longest wait a request is still served after; nil: never refuse.
    let maxWait: Duration?
    let refusals: Counter
    /// The execution slots whose request backlog the gate reads; nil reads none.
    let slots: ExecutionSlots?

    init(maxWait: Duration?, metrics: GatewayMetrics, slots: ExecutionSlots? = nil) {
        self.slots = slots
        self.maxWait = maxWait.flatMap { $0 > .zero ? $0 : nil }
        refusals = metrics.registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "shed_requests", unitName: "total",
                helpText: "GraphQL requests refused with 503 because they had waited longer than MAX_QUEUE_WAIT to start."))
    }

    /// Lets `request` through, or refuses it when it waited too long.
    /// - Throws: ``GatewayHTTPError/overloaded`` when its wait is over ``maxWait``.
    func admit(_ request: Request) throws(GatewayHTTPError) {
        guard let maxWait else { return }
        if let arrival = RequestArrivalStamp.arrival(of: request.headers) {
            let now = NIODeadline.now().uptimeNanoseconds
            if now > arrival, Duration.nanoseconds(Int64(now - arrival)) > maxWait {
                refusals.increment()
                throw .overloaded
            }
        }
        if isBacklogged {
            refusals.increment()
            throw .overloaded
        }
    }

    /// Whether an operation a WebSocket received may run now; false (counted) when the request
    /// backlog of the execution slots is over the bound.
    func admitOperation() -> Bool {
        guard isBacklogged else { return true }
        refusals.increment()
        return false
    }

    /// Whether the longest waiting request of the execution slots has waited more than ``maxWait``.
    var isBacklogged: Bool {
        guard let maxWait, let oldest = slots?.oldestWait(.request) else { return false }
        return oldest > maxWait
    }
}

/// Writes into every request head when it was decoded (`X-Gateway-Arrival`, the monotonic
/// clock's nanoseconds), replacing whatever a client sent under that name, for the
/// ``QueueWaitGate``. It sits in the HTTP/1.1 pipeline right after decoding.
final class RequestArrivalStamp: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    static let header = HeaderName("X-Gateway-Arrival")!

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        head.headerFields[Self.header] = String(NIODeadline.now().uptimeNanoseconds)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The arrival written by this handler; nil when there is none (a router without a server,
    /// as in tests).
    static func arrival(of headers: HTTPFields) -> UInt64? {
        headers[header].flatMap { UInt64($0) }
    }
}
