import FuzzSupport
import GraphQLLanguage

/// The parser on any text, with the gateway's limits:
/// - the syntax tree and the lowered `Document` agree: both parse or both fail with the same
///   error at the same place, and the tree lowered on demand equals the direct `Document`;
/// - a parsed document prints to text that parses to the same document (without locations),
///   and printing that again gives the same text.
let limits = ParseOptions(maxTokens: 15_000, maxDepth: 64)
let unbounded = ParseOptions(maxTokens: 1_000_000, maxDepth: 256, noLocation: true)

func fuzzParse(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data = bytes.map(UnsafeRawPointer.init) else { return 0 }
    let text = Fuzz.string(data, count)
    let source = Source(text)
    let tree = Result { () throws(GraphQLSyntaxError) in try SyntaxTree(parsing: source, options: limits) }
    let document = Result { () throws(GraphQLSyntaxError) in try Document(parsing: source, options: limits) }
    switch (tree, document) {
    case (.failure(let treeError), .failure(let documentError)):
        if treeError != documentError {
            Fuzz.fail("tree and Document fail differently: \(treeError) vs \(documentError)", input: text)
        }
    case (.success(let tree), .success(let document)):
        if Document(tree) != document { Fuzz.fail("Document(tree) differs from Document(parsing:)", input: text) }
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
    case (.success, .failure(let error)):
        Fuzz.fail("the tree parses but the Document fails: \(error)", input: text)
    case (.failure(let error), .success):
        Fuzz.fail("the Document parses but the tree fails: \(error)", input: text)
    }
    return 0
}

Fuzz.run(fuzzParse)
