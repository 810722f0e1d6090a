import GatewayServer

/// Reads the composition root's own environment variables with the server's wording for bad values.
enum EnvironmentValue {
    static func string(_ name: String, in environment: [String: String]) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// - Throws: ``ConfigurationError`` for anything but true/false/1/0/yes/no/on/off
    ///   (``GatewayServer/ServerConfiguration/parseBool(_:name:)``, the server's own parser).
    static func bool(_ name: String, in environment: [String: String]) throws -> Bool? {
        try string(name, in: environment).map { try ServerConfiguration.parseBool($0, name: name) }
    }
}
