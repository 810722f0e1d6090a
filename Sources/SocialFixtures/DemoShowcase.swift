import Foundation
import SocialDomain

/// What the served demo adds to ``DemoData`` so that a new user sees every feature on the first
/// start (issue 40): a private profile, dana_quiet, that alice has asked to follow. The embedded
/// store seeds it into a served data folder only, never into the tests' stores, whose
/// expectations are ``DemoData``'s.
///
/// ```text
/// Act as alice_wonder: profile(handle: "dana_quiet") is a card, viewerFollowRequestStatus PENDING
/// Act as dana_quiet:   followRequests lists alice; approveFollowRequest lets her in
/// ```
public enum DemoShowcase {
    public static let danaId = UUID(uuidString: "da7a0000-0000-4000-8000-000000000004")!

    /// The private profile: (id, handle, display name, bio).
    public static let privateUser = (id: danaId, handle: "dana_quiet", displayName: "Dana Quiet", bio: "Quiet crag days, private notes")

    /// The pending request: alice asked dana, three days after the demo users were made.
    public static let pendingRequest = (requester: DemoData.aliceId, target: danaId,
                                        createdAtMicroseconds: DemoData.createdAtMicroseconds + 3 * 86_400_000_000)
}
