import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Bounds the time a new connection may take to send its first complete request head, before any
/// HTTP handler of ours is in its pipeline.
///
/// With WebSocket upgrades (`HummingbirdWebSocket`), the pipeline gets the
/// ``RequestDeadlineHandler`` only once the first request head is decoded and found not to be an
/// upgrade: until then a client trickling its head byte by byte (slowloris) would hold the
/// connection as long as it liked. This handler sits first, on raw bytes, closes the connection
/// when `timeout` passes without a blank line ending a head, and removes itself once one arrived;
/// from then on the ``RequestDeadlineHandler`` (HTTP) or the WebSocket's own handling applies.
/// Its work is one comparison per byte of the first head.
final class FirstRequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last four bytes read, to find `\r\n\r\n` across reads.
    private var tail: UInt32 = 0
    private var done = false

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !done {
            for byte in unwrapInboundIn(data).readableBytesView {
                tail = (tail << 8) | UInt32(byte)
                if tail == 0x0D0A_0D0A {
                    done = true
                    break
                }
            }
        }
        context.fireChannelRead(data)
        if done {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil, !done else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            loopBound.value.close(promise: nil)
        }
    }
}

/// Hummingbird's HTTP/1.1 channel with WebSocket upgrades, with ``FirstRequestHeadDeadline`` put
/// first in every connection's pipeline.
struct DeadlinedUpgradeChannel: ServerChildChannel {
    let upgradeChannel: HTTP1WebSocketUpgradeChannel
    let headTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestHeadDeadline(timeout: headTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return upgradeChannel.setup(channel: channel, logger: logger)
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await upgradeChannel.handle(value: value, logger: logger)
    }
}
