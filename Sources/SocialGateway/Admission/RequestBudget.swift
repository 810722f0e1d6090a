import GraphQLEngine
import Synchronization

/// What one HTTP request may spend on work that aliases and batches would otherwise multiply:
/// one password-hashing field (`signIn`, `signUp`, `resetPassword`, `changePassword`), each
/// uploaded file once, by one field, ``searchFieldsPerRequest`` profile searches, and the bytes of
/// its answers (`MAX_RESPONSE_BYTES` for a batch's operations together).
///
/// Every operation of a batch shares the request's budget, so 50 aliased `resetPassword` fields,
/// or 20 operations of one each, buy one hash, not 1,000; and one uploaded file cannot back ten
/// aliased `createStory` fields. With each file used once, the files a request may carry
/// (`MAX_UPLOAD_FILES`, 5) also bound its file-taking fields. A search reads indexes, but what
/// it reads still depends on the data (a common query whose matches sort last walks the handle
/// order): 20 operations of 50 aliased searches were 1,000 of them for one request (issue 51).
///
/// ```swift
/// try request.budget.spendPasswordHash(field: "signIn")   // the second one in a request throws
/// try request.budget.useFile("0")                          // so does a second use of file "0"
/// try request.budget.spendSearch(field: "searchProfiles")  // the 11th one throws
/// ```
public final class RequestBudget: Sendable {
    private struct Spent {
        var passwordFields = 0
        var searches = 0
        var notificationReads = 0
        var files: Set<String> = []
        var responseBytes = 0
        var responses = 0
    }

    /// Password-hashing fields one request may run.
    public static let passwordFieldsPerRequest = 1
    /// `searchProfiles` fields one request may run: a search box asks one at a time.
    public static let searchFieldsPerRequest = 10
    /// `notifications` and `markNotificationsRead` fields one request may run: each reads the
    /// viewer's whole kept list (up to 1,000) to filter and count it, so 20 operations of 50
    /// aliases would read it 1,000 times.
    public static let notificationReadsPerRequest = 5
    private let spent = Mutex(Spent())

    public init() {}

    /// Counts one password-hashing field.
    /// - Throws: ``RequestBudgetError/tooManyPasswordFields`` past ``passwordFieldsPerRequest``.
    public func spendPasswordHash(field: String) throws(RequestBudgetError) {
        let allowed = spent.withLock { spent -> Bool in
            guard spent.passwordFields < Self.passwordFieldsPerRequest else { return false }
            spent.passwordFields += 1
            return true
        }
        if !allowed { throw .tooManyPasswordFields(field: field) }
    }

    /// The bytes the request's next answer may have, of `limit` for all of them: what earlier
    /// operations of its batch have not used.
    public func responseBytesLeft(of limit: Int) -> Int {
        spent.withLock { max(0, limit - $0.responseBytes) }
    }

    /// Counts an operation's answer of `bytes` against `limit` for the request's answers together.
    /// - Returns: false, counting nothing, when it does not fit.
    public func commitResponse(bytes: Int, limit: Int) -> Bool {
        spent.withLock { spent in
            guard bytes <= limit - spent.responseBytes else { return false }
            spent.responseBytes += bytes
            spent.responses += 1
            return true
        }
    }

    /// Whether an earlier operation of the request was answered (so the request is a batch).
    public var hasCommittedResponses: Bool { spent.withLock { $0.responses > 0 } }

    /// Counts one profile search.
    /// - Throws: ``RequestBudgetError/tooManySearches(field:)`` past ``searchFieldsPerRequest``.
    public func spendSearch(field: String) throws(RequestBudgetError) {
        let allowed = spent.withLock { spent -> Bool in
            guard spent.searches < Self.searchFieldsPerRequest else { return false }
            spent.searches += 1
            return true
        }
        if !allowed { throw .tooManySearches(field: field) }
    }

    /// Counts one read of the viewer's notifications.
    /// - Throws: ``RequestBudgetError/tooManyNotificationReads(field:)`` past ``notificationReadsPerRequest``.
    public func spendNotificationRead(field: String) throws(RequestBudgetError) {
        let allowed = spent.withLock { spent -> Bool in
            guard spent.notificationReads < Self.notificationReadsPerRequest else { return false }
            spent.notificationReads += 1
            return true
        }
        if !allowed { throw .tooManyNotificationReads(field: field) }
    }

    /// Takes the uploaded file `key` for one field.
    /// - Throws: ``RequestBudgetError/fileAlreadyUsed(key:)`` when another field took it.
    public func useFile(_ key: String) throws(RequestBudgetError) {
        let first = spent.withLock { $0.files.insert(key).inserted }
        if !first { throw .fileAlreadyUsed(key: key) }
    }
}

/// A field refused because its request already spent what it may (``RequestBudget``).
public enum RequestBudgetError: Error, Sendable, Equatable, GraphQLErrorConvertible {
    case tooManyPasswordFields(field: String)
    case tooManySearches(field: String)
    case tooManyNotificationReads(field: String)
    case fileAlreadyUsed(key: String)

    public var graphQLMessage: String {
        switch self {
        case .tooManyPasswordFields(let field):
            "\(field) was not run: a request may run only \(RequestBudget.passwordFieldsPerRequest) of signIn, signUp, "
                + "resetPassword and changePassword (aliases and batched operations included). Send it in a request of its own."
        case .tooManySearches(let field):
            "\(field) was not run: a request may run at most \(RequestBudget.searchFieldsPerRequest) searchProfiles "
                + "fields (aliases and batched operations included). Send the others in another request."
        case .tooManyNotificationReads(let field):
            "\(field) was not run: a request may run at most \(RequestBudget.notificationReadsPerRequest) notifications and "
                + "markNotificationsRead fields (aliases and batched operations included). Send the others in another request."
        case .fileAlreadyUsed(let key):
            "The uploaded file \"\(key)\" is already used by another field of this request: each file can back one field only."
        }
    }

    public var graphQLExtensions: JSONObject? {
        switch self {
        case .tooManyPasswordFields: ["code": "TOO_MANY_PASSWORD_FIELDS"]
        case .tooManySearches: ["code": "TOO_MANY_SEARCHES"]
        case .tooManyNotificationReads: ["code": "TOO_MANY_NOTIFICATION_READS"]
        case .fileAlreadyUsed: ["code": "BAD_USER_INPUT", "field": "file"]
        }
    }
}
