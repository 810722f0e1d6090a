import Foundation
import GraphQLEngine

/// A manifest of trusted documents: the operations a team's own clients send, by id, fixed at
/// build time (GraphQL's "trusted documents", Apollo's "persisted query safelisting").
///
/// With ``GatewayOptions/trustedDocumentsOnly`` the gateway runs nothing else: a request names a
/// document by `extensions.persistedQuery.sha256Hash` (or sends the exact text of one), and any
/// other document is refused with `PERSISTED_QUERY_NOT_IN_LIST` before it is parsed. Without it,
/// the manifest's documents are simply known by id from the first request on.
///
/// Two manifest shapes are read, the ones client tooling emits:
/// - Apollo's: `{"format": "apollo-persisted-query-manifest", "version": 1,
///   "operations": [{"id": "<sha256>", "body": "query ...", "name": ..., "type": ...}]}`;
/// - a plain object of id to document, `{"<sha256>": "query ..."}` (GraphQL Code Generator's
///   `persisted-documents.json`, Relay's `persisted_queries.json`).
///
/// Ids are taken as they are (so Relay's MD5 ids work too); a 64-hex-digit id must be the SHA-256
/// of its document, so a mistyped manifest fails at start-up rather than answering the wrong query.
///
/// ```swift
/// let trusted = try TrustedDocuments.load(contentsOf: URL(fileURLWithPath: "manifest.json"))
/// trusted.document(id: hash)
/// ```
public struct TrustedDocuments: Sendable {
    /// Document text by id.
    public let documentsByID: [String: String]
    /// SHA-256 of every document's text, so an exact text is recognised without its id.
    let textHashes: Set<String>

    /// A manifest from id -> document pairs.
    /// - Throws: ``TrustedDocumentsError`` when a SHA-256-shaped id is not its document's hash.
    public init(documents: [String: String]) throws {
        var byID: [String: String] = [:]
        var hashes: Set<String> = []
        for (id, text) in documents {
            let hash = DocumentHash.of(text)
            if DocumentHash.isWellFormed(id), id.lowercased() != hash {
                throw TrustedDocumentsError("the manifest's id \(id) is not the SHA-256 of its document")
            }
            byID[DocumentHash.isWellFormed(id) ? id.lowercased() : id] = text
            hashes.insert(hash)
        }
        documentsByID = byID
        textHashes = hashes
    }

    /// Reads a manifest file.
    /// - Throws: ``TrustedDocumentsError`` naming the file and what is wrong with it.
    public static func load(contentsOf url: URL) throws -> TrustedDocuments {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TrustedDocumentsError("cannot read the trusted documents manifest \(url.path)")
        }
        do {
            return try parse(Array(data))
        } catch let error as TrustedDocumentsError {
            throw TrustedDocumentsError("\(url.path): \(error.message)")
        }
    }

    /// Parses a manifest in either shape.
    /// - Throws: ``TrustedDocumentsError``.
    public static func parse(_ bytes: [UInt8]) throws -> TrustedDocuments {
        guard case .object(let root)? = try? JSONParser.parse(bytes) else {
            throw TrustedDocumentsError("the manifest is not a JSON object")
        }
        var documents: [String: String] = [:]
        if root["format"]?.stringValue == "apollo-persisted-query-manifest" {
            guard let operations = root["operations"]?.arrayValue else {
                throw TrustedDocumentsError("an Apollo manifest needs an \"operations\" array")
            }
            for (index, operation) in operations.enumerated() {
                guard let id = operation["id"]?.stringValue, let body = operation["body"]?.stringValue else {
                    throw TrustedDocumentsError("operation \(index) needs a string \"id\" and \"body\"")
                }
                documents[id] = body
            }
        } else {
            for (id, value) in root {
                guard case .string(let text) = value else {
                    throw TrustedDocumentsError("the entry \"\(id)\" must be a document string")
                }
                documents[id] = text
            }
        }
        return try TrustedDocuments(documents: documents)
    }

    /// The document with this id (a SHA-256 in either case, or the manifest's own id).
    public func document(id: String) -> String? {
        documentsByID[id] ?? (DocumentHash.isWellFormed(id) ? documentsByID[id.lowercased()] : nil)
    }

    /// Whether `text` is exactly one of the manifest's documents.
    public func contains(text: String) -> Bool {
        textHashes.contains(DocumentHash.of(text))
    }

    /// How many documents the manifest holds.
    public var count: Int { documentsByID.count }
}

/// A manifest that cannot be used, with a message for the operator.
public struct TrustedDocumentsError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
