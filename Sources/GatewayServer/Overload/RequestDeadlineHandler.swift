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

    private let deadlines: RequestDeadlines
    /// Request heads read, and responses finished, on this connection. They differ while a
    /// request is being answered, and by more than one when a client pipelines requests.
    private var requestsStarted = 0
    private var responsesEnded = 0
    /// The latest request's body: when it began, how many bytes so far, whether it has ended.
    private var bodyStart = NIODeadline.now()
    private var bodyBytes = 0
    private var bodyComplete = true
    /// The response being written answers the latest request before its body ended.
    private var refusing = false
    /// A refused body is being read and dropped until it ends or the linger time is up.
    private var draining = false
    /// When the running allowance (head, body or linger) ends; nil while none runs.
    private var due: NIODeadline?
    /// The one scheduled task and when it fires (at or before ``due``).
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?

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
        if draining {
            // The client is answered already: drop the rest of its body, close at its end.
            if case .end = part {
                cancelTimer()
                context.close(promise: nil)
            }
            return
        }
        switch part {
        case .head:
            requestsStarted += 1
            bodyStart = .now()
            bodyBytes = 0
            bodyComplete = false
            schedule(context, in: deadlines.bodyTimeout)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            bodyComplete = true
            stopAllowance()   // the server's own time, until its response ends
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Nobody downstream reads a refused body any more, so nothing else asks for more bytes.
        if draining { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            // Responses go out in request order: this one answers request `responsesEnded + 1`.
            if responsesEnded + 1 == requestsStarted, !bodyComplete {
                refusing = true
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
        case .end:
            responsesEnded += 1
            if refusing {
                refusing = false
                if bodyComplete {
                    // The body ended while the answer was written: nothing left to drop.
                    context.writeAndFlush(data, promise: promise)
                    context.close(promise: nil)
                    return
                }
                draining = true
                context.write(data, promise: promise)
                schedule(context, in: deadlines.refusedBodyLinger)
                context.read()
                return
            }
            if responsesEnded == requestsStarted, bodyComplete {
                schedule(context, in: deadlines.headTimeout)
            }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    /// Sets the allowance to end `duration` from now. The one scheduled task is only replaced
    /// when it would fire too late: one that fires earlier finds the allowance extended and
    /// re-arms for it. A keep-alive connection thus schedules a task every ~10 s instead of two
    /// per request (scheduling and cancelling them was 3% of the CPU of a cached answer, #17).
    private func schedule(_ context: ChannelHandlerContext, in duration: Duration) {
        let at = NIODeadline.now() + TimeAmount(duration)
        due = at
        if let timerAt, timerAt <= at { return }
        arm(context, at: at)
    }

    private func arm(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        timerAt = deadline
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timerFired(context)
        }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        timerAt = nil
        // No allowance runs (the server is answering), or it was extended since the task was
        // scheduled: then nothing is due yet.
        guard let due else { return }
        let now = NIODeadline.now()
        if now < due {
            arm(context, at: due)
            return
        }
        self.due = nil
        if draining || bodyComplete {
            // The linger time is up, or no request head arrived in time.
            context.close(promise: nil)
            return
        }
        // A body is arriving: its allowance grows with what arrived, one second per
        // `bodyMinimumRate` bytes.
        let earned = Duration.seconds(Double(bodyBytes) / Double(max(deadlines.bodyMinimumRate, 1)))
        let deadline = bodyStart + TimeAmount(deadlines.bodyTimeout + earned)
        if now < deadline {
            schedule(context, in: Duration.nanoseconds((deadline - now).nanoseconds))
        } else {
            context.close(promise: nil)
        }
    }

    /// Ends the running allowance; a task still scheduled finds nothing due.
    private func stopAllowance() {
        due = nil
    }

    /// Cancels the scheduled task (the connection is going away).
    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerAt = nil
        due = nil
    }
}
