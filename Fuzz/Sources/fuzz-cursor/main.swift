import Foundation
import FuzzSupport
import SocialDomain

/// What clients hand back as opaque strings: page cursors, profile ids and handles.
/// - a cursor that decodes encodes back to exactly the text it came from (cursors have one
///   spelling, so a forged variant never names the same page);
/// - page arguments with the text as a cursor either validate or are `BAD_USER_INPUT`;
/// - profile keys from the text as an id or a handle are valid or `BAD_USER_INPUT`.
let list = FollowList(.followers, of: UUID(uuidString: "a11ce000-0000-4000-8000-000000000001")!)

func fuzzCursor(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    if let cursor = PageCursor.decode(text), cursor.encoded != text {
        Fuzz.fail("cursor \(cursor) re-encodes as \(cursor.encoded)", input: text)
    }
    for (first, after, last, before) in [(20, text, nil, nil), (nil, nil, 5, text)] as [(Int?, String?, Int?, String?)] {
        do {
            let page = try PageRequest.validate(first: first, after: after, last: last, before: before, list: list)
            guard case .follow(let cursorList, let key)? = PageCursor.decode(text), cursorList == list, page.cursor == key else {
                Fuzz.fail("a page validated with a cursor that is not this list's", input: text)
            }
        } catch let error as DomainError {
            if error.code != .badUserInput { Fuzz.fail("page arguments: \(error)", input: text) }
        } catch {
            Fuzz.fail("page arguments threw \(error)", input: text)
        }
    }
    for (id, handle) in [(text, nil), (nil, text), (text, text)] as [(String?, String?)] {
        do {
            _ = try ProfileKey.from(id: id, handle: handle)
        } catch let error as DomainError {
            if error.code != .badUserInput { Fuzz.fail("profile key: \(error)", input: text) }
        } catch {
            Fuzz.fail("profile key threw \(error)", input: text)
        }
    }
    return 0
}

Fuzz.run(fuzzCursor)
