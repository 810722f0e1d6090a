import SocialDomain

/// The timestamps PostgREST prints (`2025-03-02T10:11:12.345678+00:00`), parsed exactly to
/// integer microseconds by ``UnixMicroseconds/parse(_:)``.
public enum SupabaseTimestamp {
    public static func microseconds(_ text: String) -> Int64? { UnixMicroseconds.parse(text) }
}
