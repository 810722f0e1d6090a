import Foundation
import SocialDomain

/// The embedded mode's HS256 signing secret, generated once into `<data-dir>/dev-jwt-secret`.
///
/// Local development needs real bearer tokens (the same auth path as production) without a
/// Supabase project: the server verifies with this secret, and `social-gateway token HANDLE`
/// and the playground's "Act as" picker sign with it. The file is created with mode 0600 and
/// never printed or logged.
///
/// ```swift
/// let secret = try DevSecret.loadOrCreate(in: configuration.dataDirectory)
/// ```
public enum DevSecret {
    /// The file name inside the data folder.
    public static let fileName = "dev-jwt-secret"

    /// Reads the secret, creating the folder and a new random 256-bit secret (hex) if needed.
    /// - Throws: ``ConfigurationError`` when the file cannot be read or written, or is empty.
    public static func loadOrCreate(in dataDirectory: URL) throws -> String {
        let file = dataDirectory.appendingPathComponent(fileName)
        let manager = FileManager.default
        if let data = manager.contents(atPath: file.path) {
            let secret = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret.count >= 32 else {
                throw ConfigurationError("\(file.path) holds no usable secret (delete it to generate a new one)")
            }
            return secret
        }
        do {
            try manager.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("cannot create the data folder \(dataDirectory.path): \(error.localizedDescription)")
        }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
        // Created with 0600 in one step, so the secret is never readable by others, even briefly.
        guard manager.createFile(atPath: file.path, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw ConfigurationError("cannot write \(file.path)")
        }
        return secret
    }
}
