import GatewayServer
import Foundation
import Logging
import ResponseCache
import SocialGateway

extension ServerConfiguration {
    /// Opens the SQLite response cache in `<data-dir>/cache.sqlite` with this configuration's
    /// limits: the cache `serve` runs with. The composition root chooses it, so that neither the
    /// service nor the HTTP layer names a cache (they see ``SocialGateway/ResponseCaching``).
    public static let sqliteResponseCache: @Sendable (ServerConfiguration, Logger) -> any ResponseCaching = { configuration, logger in
        ResponseCacheStore.open(
            path: configuration.dataDirectory.appendingPathComponent("cache.sqlite"),
            options: ResponseCacheOptions(
                maxBytes: configuration.cacheMaxBytes, maxPersistedQueryBytes: configuration.persistedQueriesMaxBytes,
                memoryBytes: configuration.cacheMemoryBytes),
            logger: logger)
    }

    /// This configuration with the SQLite response cache as its cache, unless one was chosen.
    public var withSQLiteResponseCache: ServerConfiguration {
        var configuration = self
        if configuration.openResponseCache == nil { configuration.openResponseCache = Self.sqliteResponseCache }
        return configuration
    }
}
