import Foundation
import Testing
@testable import SocialDomain

/// CreateStory's file and quota rules (issue 37, section 3), without a store's own checks.
@Suite("CreateStory rules (issue 37)")
struct CreateStoryRulesTests {
    static func ftyp(size: UInt32, brand: String, total: Int? = nil) -> Data {
        var bytes = withUnsafeBytes(of: size.bigEndian) { Data($0) } + Data("ftyp".utf8) + Data(brand.utf8)
        bytes += Data(repeating: 0, count: max(0, (total ?? Int(size)) - bytes.count))
        return bytes
    }

    @Test("a video is a plausible ftyp box with a known major brand; qt is QuickTime, the rest MP4")
    func videoSniff() {
        #expect(MediaFormat.sniff(Self.ftyp(size: 24, brand: "isom")) == .mp4)
        #expect(MediaFormat.sniff(Self.ftyp(size: 20, brand: "qt  ")) == .quicktime)
        for brand in ["mp42", "avc1", "M4V ", "3gp4", "3g2a", "dash", "MSNV", "iso6"] {
            #expect(MediaFormat.sniff(Self.ftyp(size: 16, brand: brand)) == .mp4, "\(brand)")
        }
        // HTML that has `ftyp` at byte 4: the old sniff stored it as an MP4
        #expect(MediaFormat.sniff(Data("<!--ftypisom--><html></html>".utf8)) == nil)
        // implausible first boxes, unknown and non-video brands
        #expect(MediaFormat.sniff(Self.ftyp(size: 24, brand: "isom", total: 23)) == nil)  // past the end
        #expect(MediaFormat.sniff(Self.ftyp(size: 12, brand: "isom", total: 64)) == nil)  // too short
        #expect(MediaFormat.sniff(Self.ftyp(size: 22, brand: "isom", total: 64)) == nil)  // half a brand
        #expect(MediaFormat.sniff(Self.ftyp(size: 4100, brand: "isom")) == nil)  // over the bound
        #expect(MediaFormat.sniff(Self.ftyp(size: 4096, brand: "isom")) == .mp4)
        for brand in ["html", "M4A ", "heic", "avif", "    ", "ISOM"] {
            #expect(MediaFormat.sniff(Self.ftyp(size: 16, brand: brand)) == nil, "\(brand)")
        }
    }

    @Test("avatars and story images share one dimension rule and its messages")
    func sharedImageRule() throws {
        #expect(UploadAvatar.maxDimension == ImageDimensions.maxDimension)
        #expect(ImageDimensions.maxDimension == 4096)
        #expect(DomainError.imageTooLarge == DomainError(.payloadTooLarge, "Image exceeds maximum dimensions of 4096x4096 pixels", field: "file"))
        #expect(DomainError.invalidImage == DomainError(.unsupportedMediaType, "Invalid image data provided", field: "file"))
        #expect(MediaFormat.png.imageFormat == .png && MediaFormat.jpeg.imageFormat == .jpeg)
        #expect(MediaFormat.mp4.imageFormat == nil && MediaFormat.quicktime.imageFormat == nil)
    }

    @Test("the quota is checked before any file is stored; retryAfter is the seconds until the oldest story expires")
    func quotaFirst() async throws {
        let now = Date(timeIntervalSince1970: 1_740_912_672)
        let oldest = UnixMicroseconds.from(now) + 90 * 1_000_000 + 1  // 90.000001 s away: 91 s
        let store = QuotaStore(expiries: [oldest] + Array(repeating: oldest + 5_000_000, count: CreateStory.maxActiveStories - 1))
        let useCase = CreateStory(stories: store, media: store, clock: ManualClock(now), random: SeededRandom(seed: 1))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
        let viewer = Viewer.user(id: Fixture.alice, token: "t")
        let error = await domainError { _ = try await useCase.execute(bytes: png, viewer: viewer) }
        #expect(error?.code == .tooManyRequests)
        #expect(error?.retryAfterSeconds == 91)
        #expect(await store.calls == ["ownActiveStoryExpiries"])
        // one fewer: stored, then written
        await store.setExpiries(Array(repeating: oldest, count: CreateStory.maxActiveStories - 1))
        _ = try await useCase.execute(bytes: png, viewer: viewer)
        #expect(await store.calls == ["ownActiveStoryExpiries", "ownActiveStoryExpiries", "putMedia story", "createStory"])
        // a too-large image is refused before the store is asked anything
        var bomb = png
        bomb.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        #expect(await domainError { _ = try await useCase.execute(bytes: bomb, viewer: viewer) } == .imageTooLarge)
        #expect(await store.calls.count == 4)
    }
}

/// A story store that answers the quota question with given expiries and records its calls.
private actor QuotaStore: StoryStore, MediaStore {
    var expiries: [Int64]
    var calls: [String] = []
    init(expiries: [Int64]) { self.expiries = expiries }
    func setExpiries(_ value: [Int64]) { expiries = value }

    func activeStories(viewer: Viewer) async throws -> [Story] { [] }
    func stories(ids: [UUID], viewer: Viewer) async throws -> [UUID: Story] { [:] }
    func ownActiveStoryExpiries(viewer: Viewer, limit: Int) async throws -> [Int64] {
        calls.append("ownActiveStoryExpiries")
        return Array(expiries.sorted().prefix(limit))
    }
    func createStory(mediaURL: String, path: MediaPath, viewer: Viewer) async throws -> Story {
        calls.append("createStory")
        return Story(id: UUID(), authorId: path.owner, mediaURL: mediaURL, mediaPath: path, mediaType: path.format.mediaType,
                     createdAtMicroseconds: 0, expiresAtMicroseconds: Story.lifetimeMicroseconds)
    }
    func putMedia(_ bytes: Data, at path: MediaPath, viewer: Viewer) async throws -> String {
        calls.append("putMedia \(path.kind)")
        return "https://example.test/\(path.kind.bucket)/\(path)"
    }
    func deleteMedia(at path: MediaPath, viewer: Viewer) async throws { calls.append("deleteMedia \(path.kind)") }
}
