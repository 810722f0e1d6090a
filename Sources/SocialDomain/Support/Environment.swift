import Foundation
import Synchronization

/// The time source of the use cases (for `updatedAt` and avatar paths); injectable for tests.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The real time.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock tests set and advance by hand.
///
/// ```swift
/// let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
/// clock.advance(by: 1)
/// ```
public final class ManualClock: WallClock, Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }
    public func set(_ date: Date) { current.withLock { $0 = date } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// Randomness the domain needs (new ids, avatar name suffixes); injectable for determinism.
public protocol RandomSource: Sendable {
    func next() -> UInt64
}

extension RandomSource {
    /// A version-4 UUID from two draws.
    public func uuid() -> UUID {
        var a = next(), b = next()
        a = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let bytes = withUnsafeBytes(of: a.bigEndian) { Array($0) } + withUnsafeBytes(of: b.bigEndian) { Array($0) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `count` lower-case hex digits (at most 16).
    public func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef")
        var value = next()
        var out = ""
        for _ in 0..<min(count, 16) {
            out.append(digits[Int(value & 0xF)])
            value >>= 4
        }
        return out
    }
}

/// The system's random generator.
public struct SystemRandom: RandomSource {
    public init() {}
    public func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}

/// A deterministic SplitMix64 stream: the same seed gives the same ids, always.
public final class SeededRandom: RandomSource, Sendable {
    private let state: Mutex<UInt64>

    public init(seed: UInt64) { state = Mutex(seed) }

    public func next() -> UInt64 {
        state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
