import Hummingbird
import NIOCore
import NIOHTTPTypes
import Prometheus

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
/// second (issue 41, part 4; figures in docs/SERVER.md, "Many connections").
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

    init(maxWait: Duration?, metrics: GatewayMetrics) {
        self.maxWait = maxWait.flatMap { $0 > .zero ? $0 : nil }
        refusals = metrics.registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "social_gateway", metricName: "shed_requests", unitName: "total",
                helpText: "GraphQL requests refused with 503 because they had waited longer than MAX_QUEUE_WAIT to start."))
    }

    /// Lets `request` through, or refuses it when it waited too long.
    /// - Throws: ``GatewayHTTPError/overloaded`` when its wait is over ``maxWait``.
    func admit(_ request: Request) throws(GatewayHTTPError) {
        guard let maxWait, let arrival = RequestArrivalStamp.arrival(of: request.headers) else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        guard now > arrival, Duration.nanoseconds(Int64(now - arrival)) > maxWait else { return }
        refusals.increment()
        throw .overloaded
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
