import ServiceLifecycle
import SocialDomain
import SocialGateway

/// The gateway the composition root (`GatewayAssembly`) built, handed to the server to route.
///
/// The server constructs none of it: it authenticates requests, frames them over HTTP, WebSocket,
/// SSE and multipart, sends them to ``service`` and ``hub``, and mirrors these parts in `/metrics`.
/// Keeping construction in one place means a new store, cache or change source touches the
/// composition root only, and the HTTP module can be read as routing alone (issue 55).
public struct AssembledGateway: Sendable {
    /// The opened store: its ports, the keys tokens are verified with, media files, demo users.
    public var backend: GatewayBackend
    /// The service over the backend's ports, with the cache, the change stream and the options
    /// the composition root chose.
    public var service: GatewayService
    /// The one stream of changes (the backend's feed, or this replica's own writes).
    public var changes: ChangeStream
    /// The cache following other writers' changes; nil without a feed or without a cache.
    public var coherence: CacheCoherence?
    /// Live subscriptions, fed by ``changes``.
    public var hub: SubscriptionHub
    /// Services to run beside the server and stop with it (the stream following the backend's
    /// feed, the store's housekeeping).
    public var services: [any Service]

    public init(
        backend: GatewayBackend, service: GatewayService, changes: ChangeStream, coherence: CacheCoherence?,
        hub: SubscriptionHub, services: [any Service]
    ) {
        self.backend = backend
        self.service = service
        self.changes = changes
        self.coherence = coherence
        self.hub = hub
        self.services = services
    }

    /// The sessions that ended (signed out, deleted accounts), whose tokens the server refuses.
    public var endedSessions: EndedSessions { service.options.endedSessions }
    /// The response cache the service answers from (a no-op cache when caching is off).
    public var cache: any ResponseCaching { service.options.cache }
}
