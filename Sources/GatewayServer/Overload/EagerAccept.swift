import NIOCore

/// Keeps the listening socket accepting connections while the server's accept loop waits for
/// its turn on the cooperative threads.
///
/// Hummingbird hands accepted connections to its accept loop through an `NIOAsyncChannel` whose
/// buffer stops reading the listening socket at 10 connections (NIO's default watermarks, not
/// configurable through Hummingbird), and that loop is one task among one per open connection on
/// the two cooperative threads. With 1,000 clients connecting at once it took 10 connections per
/// turn of every connection's request: the kernel's accept queue stayed full for 5 s and more,
/// connections past it were dropped and retried a second or three later, and their first
/// requests timed out (issue 41, part 4; `ss -ltn` and `nstat TcpExtListenOverflows` in
/// docs/performance/2026-11-28-many-connections.md).
///
/// This handler sits first in the listening channel's pipeline, accepts up to
/// ``acceptsPerRead`` connections a read instead of 4, and asks for the next accepts after every
/// batch, the way `autoRead` would if the async buffer did not hold the read back:
/// accepted connections then wait in the buffer, and the loop takes all of them at its next
/// turn. It never holds back more than the kernel would (the listen backlog bounds a batch); an
/// accept error (too many open files) pauses accepting for ``pauseAfterError`` instead of
/// retrying in a loop. Closing the channel (graceful shutdown) stops it.
///
/// ```swift
/// try await serverChannel.pipeline.addHandler(EagerAccept(), position: .first)
/// ```
final class EagerAccept: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    /// How long accepting pauses after an accept error.
    static let pauseAfterError = TimeAmount.milliseconds(100)

    /// Connections accepted per read of the listening socket (NIO's default is 4, once per
    /// event loop iteration: with thousands of connections busy on the same loop, 200-400 a second).
    static let acceptsPerRead: UInt = 256

    private var paused = false

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: Self.acceptsPerRead)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        if !paused, context.channel.isActive { context.read() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !paused {
            paused = true
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: Self.pauseAfterError) {
                let (handler, context) = loopBound.value
                handler.paused = false
                if context.channel.isActive { context.read() }
            }
        }
        context.fireErrorCaught(error)
    }
}
