import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Monotonic nanoseconds (CLOCK_MONOTONIC), the one clock of sends and receipts.
@inline(__always) func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// What every subscriber reports to: receipts of marked posts, by sequence number.
final class Receipts: @unchecked Sendable {
    private let lock = NIOLock()
    /// Receive times per post sequence number.
    private var times: [Int: [UInt64]] = [:]
    private(set) var unmarked = 0
    private(set) var errors: [String] = []
    private(set) var closed = 0

    func received(seq: Int, at time: UInt64) {
        lock.withLock { times[seq, default: []].append(time) }
    }
    func receivedUnmarked() { lock.withLock { unmarked += 1 } }
    func error(_ text: String) { lock.withLock { if errors.count < 20 { errors.append(text) } } }
    func closedEarly() { lock.withLock { closed += 1 } }
    func count(seq: Int) -> Int { lock.withLock { times[seq]?.count ?? 0 } }
    func snapshot() -> [Int: [UInt64]] { lock.withLock { times } }
    var closedCount: Int { lock.withLock { closed } }
    var errorList: [String] { lock.withLock { errors } }
}

/// Sends the upgrade request (GET /graphql, subprotocol graphql-transport-ws) once connected.
final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart
    let host: String
    let port: Int

    init(host: String, port: Int) { self.host = host; self.port = port }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(host):\(port)")
        headers.add(name: "Sec-WebSocket-Protocol", value: "graphql-transport-ws")
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/graphql", headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a refused upgrade gets here (a 4xx/5xx answer): close.
        if case .head(let head) = unwrapInboundIn(data) {
            context.fireErrorCaught(UpgradeRefused(status: Int(head.status.code)))
        }
        context.close(promise: nil)
    }
}

struct UpgradeRefused: Error { let status: Int }
struct NotAcknowledged: Error { let why: String }

/// A subscriber's acknowledgement, completed once: by its connection_ack, or by a failure (a
/// refused upgrade, a close, a timeout). Touched only on the channel's event loop.
final class Ack {
    let promise: EventLoopPromise<Void>
    private var done = false
    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }
    func succeed() { guard !done else { return }; done = true; promise.succeed(()) }
    func fail(_ error: Error) { guard !done else { return }; done = true; promise.fail(error) }
}

/// One graphql-transport-ws subscriber: connection_init with its token, then on the ack one
/// `subscribe` to feedPosts. Every `next` is timed when read and its post's sequence number
/// (in the content, `bench-<seq>-`) looked up without decoding the JSON.
final class SubscriberHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let token: String
    let query: String
    let receipts: Receipts
    let acknowledged: Ack
    private var fragments: ByteBuffer?
    private var acked = false

    init(token: String, query: String, receipts: Receipts, acknowledged: Ack) {
        self.token = token
        self.query = query
        self.receipts = receipts
        self.acknowledged = acknowledged
    }

    func handlerAdded(context: ChannelHandlerContext) {
        send(context, #"{"type":"connection_init","payload":{"Authorization":"Bearer \#(token)"}}"#)
    }

    private func send(_ context: ChannelHandlerContext, _ text: String) {
        let buffer = context.channel.allocator.buffer(string: text)
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: buffer)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let time = nowNanos()
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .continuation:
            var data = frame.unmaskedData
            if !frame.fin || fragments != nil {
                if fragments == nil { fragments = data } else { fragments!.writeBuffer(&data) }
                guard frame.fin else { return }
                data = fragments!
                fragments = nil
            }
            message(context, data, at: time)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            receipts.closedEarly()
            receipts.error("closed by the server: \(String(buffer: frame.unmaskedData))")
            context.close(promise: nil)
        default:
            break
        }
    }

    private func message(_ context: ChannelHandlerContext, _ data: ByteBuffer, at time: UInt64) {
        let bytes = data.readableBytesView
        guard let type = Self.stringValue(of: Array(#""type":"#.utf8), in: bytes) else { return }
        switch type {
        case "next":
            if let seq = Self.sequence(in: bytes) { receipts.received(seq: seq, at: time) } else { receipts.receivedUnmarked() }
        case "connection_ack":
            guard !acked else { return }
            acked = true
            if !query.isEmpty { send(context, #"{"id":"1","type":"subscribe","payload":{"query":"\#(query)"}}"#) }
            acknowledged.succeed()
        case "ping":
            send(context, #"{"type":"pong"}"#)
        case "pong":
            break
        default: // error, complete
            receipts.error(String(buffer: data))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        receipts.error("\(error)")
        acknowledged.fail(error)
        context.close(promise: nil)
    }

    /// The string after `key` (`"type":` then optional spaces and a quote), up to the next quote.
    static func stringValue(of key: [UInt8], in bytes: ByteBufferView) -> String? {
        guard let start = find(key, in: bytes, from: bytes.startIndex) else { return nil }
        var i = start + key.count
        while i < bytes.endIndex, bytes[i] == UInt8(ascii: " ") { i += 1 }
        guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var end = i
        while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\"") { end += 1 }
        return String(decoding: bytes[i..<end], as: UTF8.self)
    }

    static let marker = Array("bench-".utf8)

    /// The number after `bench-` in the message (the post's sequence number), if any.
    static func sequence(in bytes: ByteBufferView) -> Int? {
        guard let start = find(marker, in: bytes, from: bytes.startIndex) else { return nil }
        var i = start + marker.count
        var value = 0
        var digits = 0
        while i < bytes.endIndex, bytes[i] >= 48, bytes[i] <= 57 {
            value = value * 10 + Int(bytes[i] - 48)
            digits += 1
            i += 1
        }
        return digits > 0 ? value : nil
    }

    static func find(_ needle: [UInt8], in bytes: ByteBufferView, from: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var i = from
        let last = bytes.endIndex - needle.count
        while i <= last {
            if bytes[i] == needle[0] {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// Connects one subscriber; the future completes when the server acknowledged its
/// connection_init (its subscribe is sent right after).
func connectSubscriber(group: EventLoopGroup, host: String, port: Int, token: String, query: String,
                       receipts: Receipts) -> EventLoopFuture<Channel> {
    let loop = group.next()
    let acknowledged = Ack(loop.makePromise(of: Void.self))
    let timeout = loop.scheduleTask(in: .seconds(120)) { acknowledged.fail(NotAcknowledged(why: "no connection_ack in 120 s")) }
    acknowledged.promise.futureResult.whenComplete { _ in timeout.cancel() }
    let bootstrap = ClientBootstrap(group: loop)
        .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        .connectTimeout(.seconds(30))
        .channelInitializer { channel in
            let request = UpgradeRequestHandler(host: host, port: port)
            let upgrader = NIOWebSocketClientUpgrader(
                requestKey: NIOWebSocketClientUpgrader.randomRequestKey(), maxFrameSize: 1 << 20, automaticErrorHandling: true,
                upgradePipelineHandler: { channel, _ in
                    channel.pipeline.addHandler(SubscriberHandler(
                        token: token, query: query, receipts: receipts, acknowledged: acknowledged))
                })
            let config: NIOHTTPClientUpgradeConfiguration = (
                upgraders: [upgrader],
                completionHandler: { context in context.pipeline.removeHandler(request, promise: nil) })
            return channel.pipeline.addHTTPClientHandlers(withClientUpgrade: config).flatMap {
                channel.pipeline.addHandler(request)
            }
        }
    return bootstrap.connect(host: host, port: port).flatMap { channel in
        channel.closeFuture.whenComplete { _ in acknowledged.fail(NotAcknowledged(why: "closed before connection_ack")) }
        return acknowledged.promise.futureResult.map { channel }
    }
}
