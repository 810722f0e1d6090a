import _CryptoExtras
import Crypto
import Foundation
import SocialDomain
import Synchronization

/// Password hashes for the embedded accounts: scrypt (swift-crypto's `_CryptoExtras`, BoringSSL's
/// implementation) with N = 2^14, r = 8, p = 1 and a 16-byte random salt per account, 32-byte
/// keys compared in constant time.
///
/// Why scrypt: it is memory-hard (16 MiB per hash with these parameters, so a GPU farm cannot run
/// many guesses side by side), it is in a maintained library we already depend on, and these are
/// the parameters RFC 7914 and OWASP suggest for interactive logins (about 50 ms a hash here).
/// PBKDF2, the other choice there, is not memory-hard.
///
/// Sign-in needs no token, so anyone can make the server hash: hashes run one at a time on a
/// queue of their own, never on Swift's cooperative threads (two here, which a few concurrent
/// hashes would stall for every request) and never more than 16 MiB at once. Callers wait in
/// line, and the line is at most ``maxQueued`` long (under a second of hashing): past it a hash
/// is refused at once with ``SocialDomain/DomainError/passwordHashingBusy`` (503 with
/// `Retry-After`), so no burst can make a sign-in wait for minutes.
enum PasswordHasher {
    private static let queue = DispatchQueue(label: "social-gateway.password-hashing")

    /// Most hashes waiting or running at once: 16, about 0.9 s of work here.
    static let maxQueued = 16
    private static let queued = Atomic<Int>(0)

    /// Hashes waiting or running now.
    static var depth: Int { queued.load(ordering: .relaxed) }

    /// Runs `work` on the hashing queue.
    /// - Throws: ``SocialDomain/DomainError/passwordHashingBusy`` when ``maxQueued`` hashes are in line.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard queued.add(1, ordering: .relaxed).newValue <= maxQueued else {
            queued.subtract(1, ordering: .relaxed)
            throw DomainError.passwordHashingBusy
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try work() }
                queued.subtract(1, ordering: .relaxed)
                continuation.resume(with: result)
            }
        }
    }

    static let rounds = 1 << 14
    static let blockSize = 8
    static let parallelism = 1
    static let keyBytes = 32

    static func salt() -> Data { Data((0..<16).map { _ in UInt8.random(in: 0...255) }) }

    /// The hash, computed on the hashing queue.
    static func hashed(_ password: String, salt: Data) async throws -> Data {
        try await run { try hash(password, salt: salt) }
    }

    /// Whether `password` hashes to `expected`, computed on the hashing queue.
    static func verified(_ password: String, salt: Data, expected: Data) async throws -> Bool {
        try await run { try verify(password, salt: salt, expected: expected) }
    }

    /// Hashes computed by this process so far.
    static let computed = Atomic<Int>(0)

    static func hash(_ password: String, salt: Data) throws -> Data {
        computed.add(1, ordering: .relaxed)
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: keyBytes, rounds: rounds, blockSize: blockSize,
            parallelism: parallelism)
        return key.withUnsafeBytes { Data($0) }
    }

    /// Whether `password` hashes to `expected`, in time independent of where they differ.
    static func verify(_ password: String, salt: Data, expected: Data) throws -> Bool {
        let actual = try hash(password, salt: salt)
        guard actual.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(actual, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// A salt and hash to verify against when the email has no account, so that a failed sign-in
    /// costs one scrypt either way (an unknown email is not answered faster).
    static let decoy: (salt: Data, hash: Data) = {
        let salt = Data(repeating: 0x5A, count: 16)
        return (salt, (try? hash("decoy password, never a user's", salt: salt)) ?? Data(count: keyBytes))
    }()
}

extension EmbeddedStore {
    /// Password hashes (scrypt) this process has computed so far, for every store it opened:
    /// what tests check to prove that a refused request bought no hash.
    public static var passwordHashesComputed: Int { PasswordHasher.computed.load(ordering: .relaxed) }
}

/// Refresh tokens: 32 random bytes, base64url, stored as their SHA-256 (a leaked table holds no
/// usable token).
enum RefreshTokens {
    static func make() -> String {
        Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 30 days.
    static let lifetimeMicroseconds: Int64 = 30 * 24 * 3_600 * 1_000_000
}
