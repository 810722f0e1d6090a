import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// How long a client may take to send a request, so that slow or stalled clients cannot hold
/// connections open (slowloris) and a refused body does not leave its sender waiting.
///
/// The body rule is Apache `mod_reqtimeout`'s: a body may take ``bodyTimeout`` plus one second
/// for every ``bodyMinimumRate`` bytes received, so a large upload over a slow but honest link
/// finishes while a body trickled a byte a second is cut after about ``bodyTimeout``.
///
/// ```swift
/// var deadlines = RequestDeadlines()
/// deadlines.headTimeout = .seconds(2)
/// ```
public struct RequestDeadlines: Sendable, Hashable {
    /// Time allowed for a complete request head (request line and headers), counted from the
    /// connection's opening or from the end of its previous response; it is therefore also the
    /// keep-alive idle timeout (`REQUEST_HEAD_TIMEOUT`, 10 s).
    public var headTimeout: Duration = .seconds(10)
    /// Base time allowed for a request body, counted from its head (`REQUEST_BODY_TIMEOUT`, 20 s).
    public var bodyTimeout: Duration = .seconds(20)
    /// Each this many bytes of body received extend ``bodyTimeout`` by one second
    /// (`REQUEST_BODY_MIN_RATE`, 500 bytes/s).
    public var bodyMinimumRate = 500
    /// After a response that refused a body before reading it all (a 413, a 401 on an upload),
    /// the rest of the body is read and dropped for at most this long, so the client, which may
    /// be writing its whole body before it reads (Python's urllib, curl), gets to read the answer
    /// instead of a reset; then the connection is closed.
    public var refusedBodyLinger: Duration = .seconds(5)

    public init() {}
}

/// Enforces ``RequestDeadlines`` on one HTTP/1.1 connection, and closes a connection whose
/// response was sent before its request body was read in full.
///
/// It sits in Hummingbird's pipeline right after HTTP decoding (`additionalChannelHandlers`), so it
/// sees request parts as they are decoded and response parts as they are written. A head
/// trickled byte by byte produces no part at all until it is complete, so the head deadline
/// catches it; a body trickled byte by byte produces a part per byte, so the body deadline grows
/// only with what arrived.
///
/// A response written while the body is still arriving gets `Connection: close`. The body's
/// remaining bytes are then read and dropped here (the route stopped reading them, so without
/// this the connection would stall until the client gave up) until it ends or
/// ``RequestDeadlines/refusedBodyLinger`` passes, and the connection is closed.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// Waiting for a request head (a new connection, or after a response).
        case awaitingHead
        /// A body is arriving: since when, and how many bytes so far.
        case readingBody(since: NIODeadline, bytes: Int)
        /// The request is read; the server is answering (no deadline: that is our own time).
        case answering
        /// The response went out before the body was read: drop the rest, then close.
        case draining
    }

    private let deadlines: RequestDeadlines
    private var state = State.awaitingHead
    private var timer: Scheduled<Void>?
    /// A response announced `Connection: close` (its body was still arriving when it began).
    private var closeAfterResponse = false

    init(deadlines: RequestDeadlines) {
        self.deadlines = deadlines
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, in: deadlines.headTimeout) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(context, in: deadlines.headTimeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (state, part) {
        case (.draining, .end):
            cancelTimer()
            context.close(promise: nil)
        case (.draining, _):
            return   // dropped: the client is answered already
        case (_, .head):
            state = .readingBody(since: .now(), bytes: 0)
            schedule(context, in: deadlines.bodyTimeout)
        case (.readingBody(let since, let bytes), .body(let buffer)):
            state = .readingBody(since: since, bytes: bytes + buffer.readableBytes)
        case (.readingBody, .end):
            cancelTimer()
            state = .answering
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Nobody downstream reads a refused body any more, so nothing else asks for more bytes.
        if case .draining = state { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if case .readingBody = state {
                head.headerFields[.connection] = "close"
                closeAfterResponse = true
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .end:
            if case .readingBody = state {
                state = .draining
                context.write(data, promise: promise)
                schedule(context, in: deadlines.refusedBodyLinger)
                context.read()
                return
            }
            if case .answering = state {
                if closeAfterResponse {
                    context.writeAndFlush(data, promise: promise)
                    context.close(promise: nil)
                    return
                }
                state = .awaitingHead
                schedule(context, in: deadlines.headTimeout)
            }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    /// (Re)arms the one timer; when it fires, the state decides whether time is really up.
    private func schedule(_ context: ChannelHandlerContext, in duration: Duration) {
        cancelTimer()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .init(duration)) {
            let (handler, context) = loopBound.value
            handler.timerFired(context)
        }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        switch state {
        case .awaitingHead, .draining:
            context.close(promise: nil)
        case .readingBody(let since, let bytes):
            // The body's allowance grows with what arrived: one second per `bodyMinimumRate` bytes.
            let earned = Duration.seconds(Double(bytes) / Double(max(deadlines.bodyMinimumRate, 1)))
            let deadline = since + TimeAmount(deadlines.bodyTimeout + earned)
            let now = NIODeadline.now()
            if now < deadline {
                schedule(context, in: Duration.nanoseconds((deadline - now).nanoseconds))
            } else {
                context.close(promise: nil)
            }
        case .answering:
            break
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
