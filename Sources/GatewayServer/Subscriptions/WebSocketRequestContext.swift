import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The context of a WebSocket upgrade request: Hummingbird's, plus the peer's address, so that a
/// WebSocket's operations are limited per client address (sign-in, sign-up) like HTTP requests
/// are, rather than sharing one bucket for every WebSocket client.
struct GatewayWebSocketContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The TCP peer; behind a proxy, the proxy (``TrustedProxies`` finds the client).
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        webSocket = WebSocketHandlerReference()
        remoteAddress = source.channel.remoteAddress
    }
}
