/// A byte scan of a header value for a word, ASCII case-insensitively, without splitting or
/// lower-casing it: the streaming and incremental negotiations ask first whether `Accept` names
/// `event-stream` or `multipart` at all, which the values clients send on nearly every request
/// (`application/graphql-response+json, application/json`) never do. Parsing each range of them
/// into a ``ContentType`` cost 6% of a cached card's CPU (issue 53, perf of `profile-card`).
enum HeaderScan {
    /// Whether `value` contains `word` (lower-case ASCII), ignoring ASCII case.
    static func contains(_ value: String, _ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard let first = needle.first else { return true }
        var value = value
        return value.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var i = 0
            let last = bytes.count - needle.count
            while i <= last {
                if lower(bytes[i]) == first {
                    var j = 1
                    while j < needle.count, lower(bytes[i + j]) == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }
}
