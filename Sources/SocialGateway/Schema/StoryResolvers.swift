import Foundation
import GraphQLEngine
import SocialDomain

/// `Story`, `StoryGroup`, `Query.stories` and `createStory`. Stories are never cached (their
/// answers expire by the clock, which no tag can say), so they record no tags.
enum StoryResolvers {
    static func bind(_ b: inout SchemaBinder) {
        func story(_ field: String, _ get: @escaping @Sendable (Story) -> (any Sendable)?) {
            b.bindSync("Story", field) { info in get(try info.parent(as: Story.self)) }
        }
        story("id") { $0.id.lowercased }
        story("mediaURL") { $0.mediaURL }
        story("mediaType") { $0.mediaType == .image ? "IMAGE" : "VIDEO" }
        story("createdAt") { $0.createdAt }
        story("expiresAt") { $0.expiresAt }
        b.bind("Story", "author") { info in try await PostResolvers.author(try info.parent(as: Story.self).authorId, info) }
        b.bind("StoryGroup", "author") { info in try await PostResolvers.author(try info.parent(as: StoryGroup.self).authorId, info) }
        b.bindSync("StoryGroup", "stories") { try $0.parent(as: StoryGroup.self).stories }
        b.bind("Query", "stories") { info in
            let request = try info.request
            return try await storeCall(request.logger) {
                try await GetStories(stories: request.stores.stories).execute(viewer: request.viewer)
            }
        }
        b.bind("Mutation", "createStory") { info in
            let request = try info.request
            let bytes = try MutationResolvers.uploadedBytes(info)
            let story = try await storeCall(request.logger) {
                try await CreateStory(stories: request.stores.stories, media: request.stores.media).execute(bytes: bytes, viewer: request.viewer)
            }
            return StoryPayloadValue(story: story)
        }
        b.bindSync("StoryPayload", "story") { try $0.parent(as: StoryPayloadValue.self).story }
    }
}

struct StoryPayloadValue: Sendable { let story: Story }
