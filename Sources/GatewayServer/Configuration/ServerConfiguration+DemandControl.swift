import SocialDomain
import SocialGateway

extension ServerConfiguration {
    /// Demand control and rate limits from the environment: `COST_MODE`, `MAX_COST`,
    /// `COST_LIST_SIZE`, `RATE_LIMIT_MODE`, `RATE_LIMIT_QUERY_CAPACITY`,
    /// `RATE_LIMIT_QUERY_PER_SECOND`, `RATE_LIMIT_MUTATION_CAPACITY`,
    /// `RATE_LIMIT_MUTATION_PER_SECOND`, `RATE_LIMIT_MAX_KEYS` (README, Configuration).
    /// - Throws: ``ConfigurationError`` naming the variable with a bad value.
    static func readDemandControl(
        into gateway: inout GatewayOptions, value: (String) -> String?, int: (String) throws -> Int?
    ) throws {
        func mode(_ name: String) throws -> DemandControlOptions.Mode? {
            guard let text = value(name)?.lowercased() else { return nil }
            guard let mode = DemandControlOptions.Mode(rawValue: text) else {
                throw ConfigurationError("\(name) must be enforce, measure or off, got \"\(text)\"")
            }
            return mode
        }
        func positive(_ name: String) throws -> Int? {
            guard let number = try int(name) else { return nil }
            guard number > 0 else { throw ConfigurationError("\(name) must be a positive integer, got \"\(number)\"") }
            return number
        }
        if let mode = try mode("COST_MODE") { gateway.demandControl.costMode = mode }
        if let limit = try int("MAX_COST") { gateway.demandControl.maxCost = limit }
        if let size = try int("COST_LIST_SIZE") { gateway.demandControl.defaultListSize = size }
        if let mode = try mode("RATE_LIMIT_MODE") { gateway.demandControl.rateLimitMode = mode }
        let query = GatewayOptions.queryRateLimit, mutation = GatewayOptions.mutationRateLimit
        let settings = [
            try positive("RATE_LIMIT_QUERY_CAPACITY"), try positive("RATE_LIMIT_QUERY_PER_SECOND"),
            try positive("RATE_LIMIT_MUTATION_CAPACITY"), try positive("RATE_LIMIT_MUTATION_PER_SECOND"),
            try positive("RATE_LIMIT_MAX_KEYS"),
        ]
        guard settings.contains(where: { $0 != nil }) else { return }
        gateway.rateLimiter = RateLimiter(
            query: RateLimiter.Policy(
                name: query.name, capacity: settings[0] ?? query.capacity, refillPerSecond: settings[1] ?? query.refillPerSecond),
            mutation: RateLimiter.Policy(
                name: mutation.name, capacity: settings[2] ?? mutation.capacity,
                refillPerSecond: settings[3] ?? mutation.refillPerSecond),
            maxKeys: settings[4] ?? 100_000)
    }
}
