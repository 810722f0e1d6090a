import Crypto

/// The identity of a cached response: operation, operation name, variables and scope.
///
/// Two requests share an entry only if all four parts are equal. The caller supplies the document
/// printed canonically and the variables as canonical JSON, so that formatting and key order do
/// not split entries; this type only hashes. The digest is SHA-256 over a length-prefixed encoding
/// of the parts, so no choice of strings can make two different keys collide by concatenation
/// (`("ab", "c")` vs `("a", "bc")`), and a `nil` operation name differs from an empty one.
///
/// ```swift
/// let key = CacheKey(document: printed, operationName: "Feed", variables: "{\"first\":10}", scope: .viewer(uid))
/// ```
public struct CacheKey: Sendable, Hashable {
    /// The operation printed canonically.
    public let document: String
    /// The selected operation's name, if the request named one.
    public let operationName: String?
    /// The coerced variables as canonical JSON.
    public let variables: String
    /// Who the answer is valid for.
    public let scope: CacheScope
    /// Lower-case hex SHA-256 of the four parts, length-prefixed; the primary key in the store.
    public let digest: String

    /// Builds a key and computes its digest.
    /// - Parameters:
    ///   - document: the canonical print of the operation's document.
    ///   - operationName: the operation name from the request, or `nil`.
    ///   - variables: the variables as canonical JSON (sorted keys, no insignificant whitespace).
    ///   - scope: ``CacheScope/shared`` or the viewer the answer belongs to.
    public init(document: String, operationName: String?, variables: String, scope: CacheScope) {
        self.document = document
        self.operationName = operationName
        self.variables = variables
        self.scope = scope
        self.digest = Self.digest(document: document, operationName: operationName, variables: variables, scope: scope)
    }

    static func digest(document: String, operationName: String?, variables: String, scope: CacheScope) -> String {
        var hasher = SHA256()
        var prefix = "social-gateway.response-cache.v1"
        prefix.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        func part(_ value: String?) {
            guard var text = value else {
                hasher.update(data: [0])
                return
            }
            text.withUTF8 { bytes in
                var header = (UInt8(1), UInt64(bytes.count).bigEndian)
                withUnsafeBytes(of: &header.0) { hasher.update(bufferPointer: $0) }
                withUnsafeBytes(of: &header.1) { hasher.update(bufferPointer: $0) }
                hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
            }
        }
        part(document)
        part(operationName)
        part(variables)
        part(scope.keyComponent)
        return Hex.encode(hasher.finalize())
    }
}
