import Foundation
import SocialDomain

extension MemoryReads {
    /// What a signed-in viewer sees of one profile's card: the profile as they may see it, their
    /// follow state with it, and each page asked for (nil for a list behind the profile's card,
    /// empty for every such viewer).
    struct CardView {
        let profile: Profile
        let state: FollowState
        let pages: [FollowPage?]
    }

    /// The viewer's ``CardView`` of the profile `key` names, read under one lock by the same
    /// bodies as the single reads (``readyProfiles(handleKeys:viewer:)``,
    /// ``readyFollowStates(profileIds:viewer:)``, ``readyFollowPage(_:viewer:)``), so it is what
    /// the resolvers would read, by the same rule.
    ///
    /// Why one lock: the audience of a card is computed before every card's lookup, and three
    /// reads took the lock that every resolver and fill contends for three times.
    ///
    /// - Parameter pages: the page requests for the profile's id (nil when the arguments are
    ///   refused: the answer is then nil).
    /// - Returns: nil inside the outcome for a hidden or missing profile.
    func readyCardView(_ key: ProfileKey, viewer: Viewer, pages: (UUID) -> [FollowPageRequest]?) -> Outcome<CardView?> {
        ready(viewer) { state, view, missing -> CardView?? in
            let found: Profile?
            switch key {
            case .handle(let handle): found = Self.profiles(handleKeys: [handle], in: &state, view, &missing)[handle]
            case .id(let id): found = Self.profiles(ids: [id], in: &state, view, &missing)[id]
            }
            guard missing.isEmpty else { return nil }
            guard let profile = found, let requests = pages(profile.id) else { return .some(nil) }
            guard let followState = Self.followStates([profile.id], in: &state, view, &missing).first else { return nil }
            var read: [FollowPage?] = []
            read.reserveCapacity(requests.count)
            for request in requests {
                guard SocialRules.showsLists(of: profile.access) else {
                    read.append(nil)
                    continue
                }
                guard let page = Self.followPage(request, in: &state, view, &missing) else { return nil }
                read.append(page)
            }
            return .some(CardView(profile: profile, state: followState, pages: read))
        }
    }
}
