import Foundation
import Testing
@testable import SocialDomain

/// One path shape and one set of rules for every kind of media (issue 38).
@Suite("MediaPath and MediaKind")
struct MediaPathTests {
    static let owner = "a11ce000-0000-4000-8000-000000000001"

    @Test("a kind names its bucket and takes only its formats: avatars are images, stories images or videos")
    func kinds() {
        #expect(MediaKind.avatar.bucket == "avatars" && MediaKind.story.bucket == "stories")
        #expect(MediaKind.avatar.formats == [.jpeg, .png])
        #expect(MediaKind.story.formats == [.jpeg, .png, .mp4, .quicktime])
    }

    @Test("a path is parsed for its kind: an MP4 is a story's, never an avatar's; the text never carries the kind")
    func parsingByKind() throws {
        let video = "\(Self.owner)/1740912672_3f9c1a2b.mp4"
        #expect(MediaPath(parsing: video, kind: .avatar) == nil)
        let story = try #require(MediaPath(parsing: video, kind: .story))
        #expect(story.kind == .story && story.format == .mp4 && story.description == video)
        let image = "\(Self.owner)/1740912672_3f9c1a2b.png"
        #expect(MediaPath(parsing: image, kind: .avatar)?.description == image)
        #expect(MediaPath(parsing: image, kind: .story)?.description == image)
        #expect(MediaPath(parsing: image, kind: .avatar) != MediaPath(parsing: image, kind: .story))
        for bad in ["\(Self.owner)/1740912672_3f9c1a2b.gif", "\(Self.owner)/../x.png", "\(Self.owner.uppercased())/1_3f9c1a2b.png",
                    "\(Self.owner)/1_3F9C1A2B.png", "\(Self.owner)/01_3f9c1a2b.png", "\(Self.owner)/1_3f9c1a2.png"] {
            #expect(MediaPath(parsing: bad, kind: .story) == nil, "\(bad)")
        }
    }

    @Test("a story's path is read back from a public URL of either store, as an avatar's is")
    func storyFromURL() {
        let path = "\(Self.owner)/1740912672_3f9c1a2b.mov"
        #expect(MediaPath(publicURL: "http://127.0.0.1:8080/stories/\(path)", kind: .story)?.format == .quicktime)
        #expect(MediaPath(publicURL: "https://x.supabase.co/storage/v1/object/public/stories/\(path)", kind: .story)?.description == path)
        #expect(MediaPath(publicURL: "https://x.supabase.co/storage/v1/object/public/stories/\(path)", kind: .avatar) == nil)
    }

    @Test("formats keep their extensions and types; an image format is a media format")
    func formats() {
        #expect(MediaFormat.allCases.map(\.fileExtension) == ["jpg", "png", "mp4", "mov"])
        #expect(MediaFormat.allCases.map(\.contentType) == ["image/jpeg", "image/png", "video/mp4", "video/quicktime"])
        #expect(MediaFormat(ImageFormat.png) == .png && MediaFormat(ImageFormat.jpeg) == .jpeg)
        #expect(MediaFormat.allCases.map(\.mediaType) == [.image, .image, .video, .video])
    }
}
