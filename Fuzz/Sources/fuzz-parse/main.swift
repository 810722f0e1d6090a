import FuzzSupport
import GraphQLLanguage

/// The parser on any text, with the gateway's limits: it never crashes, and
/// - a parsed document prints to text that parses to the same document (without locations),
///   and printing that again gives the same text.
let limits = ParseOptions(maxTokens: 15_000, maxDepth: 64)
let unbounded = ParseOptions(maxTokens: 1_000_000, maxDepth: 256, noLocation: true)

func fuzzParse(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    let source = Source(text)
    let document: Document
    do {
        document = try Document(parsing: source, options: limits)
    } catch {
        return 0
    }
    let printed = Printer.print(document)
    let reparsed: Document
    do {
        reparsed = try Document(parsing: printed, options: unbounded)
    } catch {
        Fuzz.fail("the printed document does not parse: \(error)\n--- printed ---\n\(printed)", input: text)
    }
    guard let original = try? Document(parsing: source, options: unbounded), original == reparsed else {
        Fuzz.fail("print then parse changed the document\n--- printed ---\n\(printed)", input: text)
    }
    let reprinted = Printer.print(reparsed)
    if reprinted != printed {
        Fuzz.fail("printing is not stable\n--- printed ---\n\(printed)\n--- reprinted ---\n\(reprinted)", input: text)
    }
    return 0
}

Fuzz.run(fuzzParse)
