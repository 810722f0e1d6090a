import Foundation

/// Bodies shaped like the gateway's answers, for the cache's compression tests.
enum SampleBodies {
    /// A follower-graph-like JSON body of `profiles` edges: the same keys on every profile,
    /// varying values (ids random), as the cache stores them.
    static func graphLike(_ profiles: Int) -> [UInt8] {
        var text = #"{"data":{"profile":{"followers":{"edges":["#
        for i in 0..<profiles {
            if i > 0 { text += "," }
            text += #"{"cursor":"djE6Zm9sbG93ZXJzOj\#(i)","node":{"id":"\#(UUID().uuidString.lowercased())","handle":"user\#(i)","#
            text += #""displayName":"User \#(i)","isPublic":true,"followerCount":\#(i % 97),"viewerIsFollowing":false}}"#
        }
        return Array((text + "]}}}}").utf8)
    }
}
