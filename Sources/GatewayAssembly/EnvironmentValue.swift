import GatewayServer

/// Reads the composition root's own environment variables with the server's wording for bad values.
enum EnvironmentValue {
    static func string(_ name: String, in environment: [String: String]) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// - Throws: ``ServerConfigurationError`` for anything but true/false/1/0/yes/no/on/off.
    static func bool(_ name: String, in environment: [String: String]) throws -> Bool? {
        guard let text = string(name, in: environment)?.lowercased() else { return nil }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ServerConfigurationError("\(name) must be true or false, got \"\(text)\"")
        }
    }
}
