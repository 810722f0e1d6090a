// PROTOTYPE, not product code: the arena AST that issue #2's remaining speed target
// needs, measured beside the value-type AST by ../arena-prototype-bench. It is built
// into a copy of GraphQLLanguage (it reuses the module's Lexer) in a throwaway package,
// never into the product.
//
// The design: every node is a plain record (no `String`, no array, no reference) in one
// bump region per document, addressed by byte offset; a list is a span of records
// moved there, contiguous, from a scratch stack once the list is complete; names and
// numbers are slices of the source (the document keeps the source); cooked string
// values (escapes, block strings) are the only `String`s made. Freeing a document is
// one deallocation. Nothing in a parse is reference counted but those strings.
//
// What it leaves out, so its figures are an upper bound of a few percent: some
// checks of the grammar (the `on` keyword after `fragment Name`, a fragment named
// `on`, descriptions on shorthand queries and extensions, constant values), and the
// error wording (errors are found, with generic messages). `ArenaDocument.census()`
// walks the tree and must count the same nodes and name bytes as the value AST: the
// bench checks that before timing, so a parse that skipped something would show.
//
// Lesson kept here for the real design: the region and the scratch stacks live in
// the parser's own struct during a parse. Held as properties of a class (the
// document), every append was a dynamic exclusivity check, 40% of the time.
import Synchronization

public struct Slice: Sendable { public var start: UInt32; public var count: UInt32
    static let none = Slice(start: UInt32.max, count: 0) }
public struct Span: Sendable { public var start: UInt32; public var count: UInt32
    static let empty = Span(start: 0, count: 0) }

public struct AField { var alias: Slice; var name: Slice; var arguments: Span; var directives: Span; var selections: Span; var end: UInt32 }
public struct ASelection { var kind: UInt32; var index: UInt32 }  // 0 field, 1 spread, 2 inline
public struct ASpread { var name: Slice; var directives: Span; var start: UInt32; var end: UInt32 }
public struct AInline { var typeCondition: Slice; var directives: Span; var selections: Span; var start: UInt32; var end: UInt32 }
public struct AArgument { var name: Slice; var value: UInt32 }
public struct AValue { var kind: UInt8; var start: UInt32; var end: UInt32; var payload: Span }  // list/object: span; string: index into strings
public struct AObjectField { var name: Slice; var value: UInt32 }
public struct ADirective { var name: Slice; var arguments: Span; var start: UInt32; var end: UInt32 }
public struct AType { var kind: UInt8; var name: Slice; var inner: UInt32; var start: UInt32; var end: UInt32 }
public struct AVariableDefinition { var description: UInt32; var name: Slice; var start: UInt32; var type: UInt32; var defaultValue: UInt32; var directives: Span; var end: UInt32 }
public struct AOperation { var kind: UInt8; var description: UInt32; var name: Slice; var variables: Span; var directives: Span; var selections: Span; var start: UInt32; var end: UInt32 }
public struct AFragment { var description: UInt32; var name: Slice; var typeCondition: Slice; var directives: Span; var selections: Span; var start: UInt32; var end: UInt32 }
public struct ADefinition { var kind: UInt32; var index: UInt32 }
public struct ATypeDef { var kind: UInt8; var isExtension: Bool; var description: UInt32; var name: Slice; var interfaces: Span; var directives: Span; var fields: Span; var start: UInt32; var end: UInt32 }
public struct AFieldDef { var description: UInt32; var name: Slice; var arguments: Span; var type: UInt32; var directives: Span; var start: UInt32; var end: UInt32 }
public struct AInputValue { var description: UInt32; var name: Slice; var type: UInt32; var defaultValue: UInt32; var directives: Span; var start: UInt32; var end: UInt32 }
public struct AEnumValue { var description: UInt32; var name: Slice; var directives: Span; var start: UInt32; var end: UInt32 }
public struct ADirectiveDef { var description: UInt32; var name: Slice; var arguments: Span; var isRepeatable: Bool; var locations: Span; var start: UInt32; var end: UInt32 }
public struct ASchemaDef { var description: UInt32; var isExtension: Bool; var directives: Span; var operationTypes: Span; var start: UInt32; var end: UInt32 }
public struct AOperationType { var operation: UInt8; var type: Slice }

/// A growable stack of plain records (the scratch stacks lists are built on).
struct Buffer<T> {
    var base: UnsafeMutablePointer<T>? = nil
    var count = 0
    var capacity = 0
    @inline(__always) mutating func append(_ x: T) -> UInt32 {
        if count == capacity { grow(count + 1) }
        (base.unsafelyUnwrapped + count).initialize(to: x)
        count += 1
        return UInt32(truncatingIfNeeded: count - 1)
    }
    /// Moves `n` items from `from` to the end, contiguous: their span.
    @inline(__always) mutating func append(moving from: UnsafeMutablePointer<T>, _ n: Int) -> Span {
        if n == 0 { return .empty }
        if count + n > capacity { grow(count + n) }
        (base.unsafelyUnwrapped + count).moveInitialize(from: from, count: n)
        let span = Span(start: UInt32(truncatingIfNeeded: count), count: UInt32(truncatingIfNeeded: n))
        count += n
        return span
    }
    @inline(never) mutating func grow(_ needed: Int) {
        let newCapacity = max(16, capacity * 2, needed)
        let b = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        if let base { b.moveInitialize(from: base, count: count); base.deallocate() }
        base = b
        capacity = newCapacity
    }
    func free() { base?.deallocate() }
    var lastIndex: UInt32 { UInt32(truncatingIfNeeded: count - 1) }
}

/// One document's nodes: a bump region of 4-aligned plain records, addressed by byte offset.
struct Region {
    var base: UnsafeMutableRawPointer? = nil
    var used = 0
    var capacity = 0
    @inline(__always) mutating func append<T>(_ x: T) -> UInt32 {
        let size = (MemoryLayout<T>.stride + 3) & ~3
        if used + size > capacity { grow(used + size) }
        (base.unsafelyUnwrapped + used).initializeMemory(as: T.self, to: x)
        let offset = used
        used += size
        return UInt32(truncatingIfNeeded: offset)
    }
    @inline(__always) mutating func append<T>(moving from: UnsafeMutablePointer<T>, _ n: Int) -> Span {
        if n == 0 { return .empty }
        let size = n * MemoryLayout<T>.stride
        if used + size > capacity { grow(used + size) }
        (base.unsafelyUnwrapped + used).copyMemory(from: from, byteCount: size)
        let span = Span(start: UInt32(truncatingIfNeeded: used), count: UInt32(truncatingIfNeeded: n))
        used += (size + 3) & ~3
        return span
    }
    @inline(never) mutating func grow(_ needed: Int) {
        let newCapacity = max(4096, capacity * 2, needed)
        let b = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        if let base { b.copyMemory(from: base, byteCount: used); base.deallocate() }
        base = b
        capacity = newCapacity
    }
    func free() { base?.deallocate() }
}

/// One parsed document: the source and every node, in one region.
public final class ArenaDocument: @unchecked Sendable {
    public let source: Source
    var heap = Region()
    var definitionList = Span.empty
    var strings: [String] = []

    init(source: Source) { self.source = source }

    deinit { heap.free() }

    public var definitionCount: Int { Int(definitionList.count) }
    /// Bytes of the region the nodes take (its capacity is reserved at 3x the source).
    public var nodeBytes: Int { heap.used }

    public static func parse(_ source: Source) throws(GraphQLSyntaxError) -> ArenaDocument {
        let document = ArenaDocument(source: source)
        document.heap.grow(source.body.utf8.count * 3)
        var text = source.body
        var failure: GraphQLSyntaxError?
        let workspace = ParserWorkspacePool.take()
        let scratch = ArenaScratchPool.take()
        defer { ParserWorkspacePool.give(workspace); ArenaScratchPool.give(scratch) }
        text.withUTF8 { bytes in
            do throws(GraphQLSyntaxError) {
                var p = ArenaParser(
                    lexer: Lexer(bytes: bytes, source: source, maxTokens: 1_000_000, strings: workspace.strings),
                    heap: document.heap, scratch: scratch.stacks)
                defer {
                    scratch.stacks = p.scratch
                    document.heap = p.heap
                }
                try p.lexer.advance()
                try p.parseDocument()
                document.strings = p.strings
                document.definitionList = p.definitionList
            } catch { failure = error }
        }
        if let failure { throw failure }
        return document
    }
}

struct ScratchStacks {
    var sASelection = Buffer<ASelection>()
    var sAValue = Buffer<AValue>()
    var sAObjectField = Buffer<AObjectField>()
    var sADefinition = Buffer<ADefinition>()
    var sAFieldDef = Buffer<AFieldDef>()
    var sAInputValue = Buffer<AInputValue>()
    var sAArgument = Buffer<AArgument>()
    var sADirective = Buffer<ADirective>()
    var sAVariableDefinition = Buffer<AVariableDefinition>()
    var sAEnumValue = Buffer<AEnumValue>()
    var sSlice = Buffer<Slice>()
    var sAOperationType = Buffer<AOperationType>()
    func free() { sASelection.free(); sAValue.free(); sAObjectField.free(); sADefinition.free(); sAFieldDef.free(); sAInputValue.free(); sAArgument.free(); sADirective.free(); sAVariableDefinition.free(); sAEnumValue.free(); sSlice.free(); sAOperationType.free() }
    mutating func reset() { sASelection.count = 0; sAValue.count = 0; sAObjectField.count = 0; sADefinition.count = 0; sAFieldDef.count = 0; sAInputValue.count = 0; sAArgument.count = 0; sADirective.count = 0; sAVariableDefinition.count = 0; sAEnumValue.count = 0; sSlice.count = 0; sAOperationType.count = 0 }
}

final class ArenaScratch: @unchecked Sendable {
    var stacks = ScratchStacks()
    deinit { stacks.free() }
    func reset() { stacks.reset() }
}

enum ArenaScratchPool {
    private static let idle = Mutex<[ArenaScratch]>([])
    static func take() -> ArenaScratch { idle.withLock { $0.popLast() } ?? ArenaScratch() }
    static func give(_ s: ArenaScratch) { s.reset(); idle.withLock { if $0.count < 16 { $0.append(s) } } }
}

struct ArenaParser {
    var lexer: Lexer
    var heap: Region
    var scratch: ScratchStacks
    var strings: [String] = []
    var definitionList = Span.empty
    var depth = 0
    let maxDepth = 256

    @inline(__always) func peek(_ k: TokenKind) -> Bool { lexer.token.kind == k }

    /// Moves the items above `base` of a scratch stack into the document, contiguous.
    @inline(__always) static func finish<T>(_ heap: inout Region, _ stack: inout Buffer<T>, from base: Int) -> Span {
        let span = heap.append(moving: stack.base.unsafelyUnwrapped + base, stack.count - base)
        stack.count = base
        return span
    }
    @inline(__always) var start: UInt32 { UInt32(truncatingIfNeeded: lexer.token.start) }
    @inline(__always) var end: UInt32 { UInt32(truncatingIfNeeded: lexer.lastEnd) }

    @inline(__always) mutating func expect(_ kind: TokenKind) throws(GraphQLSyntaxError) -> Token {
        let token = lexer.token
        guard token.kind == kind else { throw expected(kind) }
        try lexer.advance()
        return token
    }
    @inline(never) func expected(_ kind: TokenKind) -> GraphQLSyntaxError {
        lexer.error(at: lexer.token.start, "Expected \(kind.description), found \(lexer.token.kind.description).")
    }
    @inline(__always) mutating func expectOptional(_ kind: TokenKind) throws(GraphQLSyntaxError) -> Bool {
        guard lexer.token.kind == kind else { return false }
        try lexer.advance()
        return true
    }
    @inline(__always) mutating func name() throws(GraphQLSyntaxError) -> Slice {
        let t = try expect(.name)
        return Slice(start: UInt32(truncatingIfNeeded: t.start), count: UInt32(truncatingIfNeeded: t.end - t.start))
    }
    func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        let k = keyword.utf8Start
        for i in 0..<keyword.utf8CodeUnitCount where lexer.bytes[token.start + i] != k[i] { return false }
        return true
    }
    mutating func enter() throws(GraphQLSyntaxError) {
        depth += 1
        if depth > maxDepth { throw lexer.error(at: lexer.token.start, "too deep") }
    }

    mutating func parseDocument() throws(GraphQLSyntaxError) {
        let base = scratch.sADefinition.count
        repeat {
            _ = scratch.sADefinition.append(try parseDefinition())
        } while lexer.token.kind != .eof
        definitionList = Self.finish(&heap, &scratch.sADefinition, from: base)
    }

    mutating func description() throws(GraphQLSyntaxError) -> UInt32 {
        guard peek(.string) || peek(.blockString) else { return UInt32.max }
        return try stringValue()
    }

    mutating func stringValue() throws(GraphQLSyntaxError) -> UInt32 {
        heap.append(try stringLiteral())
    }

    mutating func stringLiteral() throws(GraphQLSyntaxError) -> AValue {
        let t = lexer.token
        strings.append(lexer.stringValue)
        try lexer.advance()
        return AValue(kind: t.kind == .blockString ? 9 : 3, start: UInt32(t.start), end: end,
            payload: Span(start: UInt32(strings.count - 1), count: 0))
    }

    mutating func parseDefinition() throws(GraphQLSyntaxError) -> ADefinition {
        if peek(.braceL) { return ADefinition(kind: 0, index: try parseOperation()) }
        let hasDescription = peek(.string) || peek(.blockString)
        let keyword = hasDescription ? try lexer.lookahead() : lexer.token
        if isKeyword(keyword, "query") || isKeyword(keyword, "mutation") || isKeyword(keyword, "subscription") {
            return ADefinition(kind: 0, index: try parseOperation())
        }
        if isKeyword(keyword, "fragment") { return ADefinition(kind: 1, index: try parseFragmentDefinition()) }
        if isKeyword(keyword, "schema") { return ADefinition(kind: 2, index: try parseSchema(isExtension: false)) }
        if isKeyword(keyword, "directive") { return ADefinition(kind: 4, index: try parseDirectiveDefinition()) }
        if isKeyword(keyword, "extend") {
            try lexer.advance()
            if isKeyword(lexer.token, "schema") { return ADefinition(kind: 2, index: try parseSchema(isExtension: true)) }
            return ADefinition(kind: 3, index: try parseTypeDefinition(isExtension: true))
        }
        return ADefinition(kind: 3, index: try parseTypeDefinition(isExtension: false))
    }

    mutating func parseOperation() throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        if peek(.braceL) {
            let sel = try parseSelections()
            return heap.append(AOperation(kind: 0, description: UInt32.max, name: .none, variables: .empty, directives: .empty, selections: sel, start: s, end: end))
        }
        let d = try description()
        let kind: UInt8 = isKeyword(lexer.token, "query") ? 0 : isKeyword(lexer.token, "mutation") ? 1 : 2
        try lexer.advance()
        let n = peek(.name) ? try name() : Slice.none
        var vars = Span.empty
        if try expectOptional(.parenL) {
            let base = scratch.sAVariableDefinition.count
            repeat {
                let vs = start
                let vd = try description()
                _ = try expect(.dollar)
                let vn = try name()
                _ = try expect(.colon)
                let type = try parseType()
                let dv = try expectOptional(.equals) ? heap.append(try parseValue()) : UInt32.max
                let dirs = try parseDirectives()
                _ = scratch.sAVariableDefinition.append(AVariableDefinition(description: vd, name: vn, start: vs, type: type, defaultValue: dv, directives: dirs, end: end))
            } while try !expectOptional(.parenR)
            vars = Self.finish(&heap, &scratch.sAVariableDefinition, from: base)
        }
        let dirs = try parseDirectives()
        let sel = try parseSelections()
        return heap.append(AOperation(kind: kind, description: d, name: n, variables: vars, directives: dirs, selections: sel, start: s, end: end))
    }

    mutating func parseFragmentDefinition() throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        let d = try description()
        try lexer.advance()
        let n = try name()
        try lexer.advance()  // on
        let tc = try name()
        let dirs = try parseDirectives()
        let sel = try parseSelections()
        return heap.append(AFragment(description: d, name: n, typeCondition: tc, directives: dirs, selections: sel, start: s, end: end))
    }

    mutating func parseSelections() throws(GraphQLSyntaxError) -> Span {
        try enter()
        _ = try expect(.braceL)
        let base = scratch.sASelection.count
        repeat {
            _ = scratch.sASelection.append(try parseSelection())
        } while try !expectOptional(.braceR)
        let span = Self.finish(&heap, &scratch.sASelection, from: base)
        depth -= 1
        return span
    }

    mutating func parseSelection() throws(GraphQLSyntaxError) -> ASelection {
        if peek(.spread) {
            let s = start
            try lexer.advance()
            let hasOn = isKeyword(lexer.token, "on")
            if hasOn { try lexer.advance() }
            if !hasOn && peek(.name) {
                let n = try name()
                let dirs = try parseDirectives()
                return ASelection(kind: 1, index: heap.append(ASpread(name: n, directives: dirs, start: s, end: end)))
            }
            let tc = hasOn ? try name() : Slice.none
            let dirs = try parseDirectives()
            let sel = try parseSelections()
            return ASelection(kind: 2, index: heap.append(AInline(typeCondition: tc, directives: dirs, selections: sel, start: s, end: end)))
        }
        var alias = Slice.none
        var n = try name()
        if try expectOptional(.colon) {
            alias = n
            n = try name()
        }
        let args = try parseArguments()
        let dirs = try parseDirectives()
        let sel = peek(.braceL) ? try parseSelections() : Span.empty
        return ASelection(kind: 0, index: heap.append(AField(alias: alias, name: n, arguments: args, directives: dirs, selections: sel, end: end)))
    }

    @inline(__always) mutating func parseArguments() throws(GraphQLSyntaxError) -> Span {
        guard peek(.parenL) else { return .empty }
        return try parseArgumentList()
    }

    @inline(never) mutating func parseArgumentList() throws(GraphQLSyntaxError) -> Span {
        try lexer.advance()
        // Arguments never nest inside arguments: they go straight to the document.
        let base = scratch.sAArgument.count
        repeat {
            let n = try name()
            _ = try expect(.colon)
            let v = heap.append(try parseValue())
            _ = scratch.sAArgument.append(AArgument(name: n, value: v))
        } while try !expectOptional(.parenR)
        return Self.finish(&heap, &scratch.sAArgument, from: base)
    }

    @inline(__always) mutating func parseDirectives() throws(GraphQLSyntaxError) -> Span {
        guard peek(.at) else { return .empty }
        return try parseDirectiveList()
    }

    @inline(never) mutating func parseDirectiveList() throws(GraphQLSyntaxError) -> Span {
        // Directive arguments hold values, never directives: contiguous in the document.
        let base = scratch.sADirective.count
        repeat {
            let s = start
            try lexer.advance()
            let n = try name()
            let args = try parseArguments()
            _ = scratch.sADirective.append(ADirective(name: n, arguments: args, start: s, end: end))
        } while peek(.at)
        return Self.finish(&heap, &scratch.sADirective, from: base)
    }

    mutating func parseValue() throws(GraphQLSyntaxError) -> AValue {
        let t = lexer.token
        let s = UInt32(truncatingIfNeeded: t.start)
        switch t.kind {
        case .bracketL:
            try enter()
            try lexer.advance()
            let base = scratch.sAValue.count
            while try !expectOptional(.bracketR) { _ = scratch.sAValue.append(try parseValue()) }
            let span = Self.finish(&heap, &scratch.sAValue, from: base)
            depth -= 1
            return AValue(kind: 7, start: s, end: end, payload: span)
        case .braceL:
            try enter()
            try lexer.advance()
            let base = scratch.sAObjectField.count
            while try !expectOptional(.braceR) {
                let n = try name()
                _ = try expect(.colon)
                let v = heap.append(try parseValue())
                _ = scratch.sAObjectField.append(AObjectField(name: n, value: v))
            }
            let span = Self.finish(&heap, &scratch.sAObjectField, from: base)
            depth -= 1
            return AValue(kind: 8, start: s, end: end, payload: span)
        case .int, .float:
            try lexer.advance()
            return AValue(kind: t.kind == .int ? 1 : 2, start: s, end: end, payload: .empty)
        case .string, .blockString:
            return try stringLiteral()
        case .name:
            try lexer.advance()
            return AValue(kind: 5, start: s, end: end, payload: .empty)
        case .dollar:
            try lexer.advance()
            _ = try name()
            return AValue(kind: 0, start: s, end: end, payload: .empty)
        default:
            throw lexer.error(at: t.start, "Unexpected")
        }
    }

    mutating func parseType() throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        var type: UInt32
        if try expectOptional(.bracketL) {
            try enter()
            let inner = try parseType()
            _ = try expect(.bracketR)
            depth -= 1
            type = heap.append(AType(kind: 1, name: .none, inner: inner, start: s, end: end))
        } else {
            type = heap.append(AType(kind: 0, name: try name(), inner: 0, start: s, end: end))
        }
        if try expectOptional(.bang) {
            type = heap.append(AType(kind: 2, name: .none, inner: type, start: s, end: end))
        }
        return type
    }

    // MARK: type system

    mutating func parseSchema(isExtension: Bool) throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        let d = try description()
        try lexer.advance()
        let dirs = try parseDirectives()
        var ops = Span.empty
        if try expectOptional(.braceL) {
            let base = scratch.sAOperationType.count
            repeat {
                let op: UInt8 = isKeyword(lexer.token, "query") ? 0 : isKeyword(lexer.token, "mutation") ? 1 : 2
                try lexer.advance()
                _ = try expect(.colon)
                _ = scratch.sAOperationType.append(AOperationType(operation: op, type: try name()))
            } while try !expectOptional(.braceR)
            ops = Self.finish(&heap, &scratch.sAOperationType, from: base)
        }
        return heap.append(ASchemaDef(description: d, isExtension: isExtension, directives: dirs, operationTypes: ops, start: s, end: end))
    }

    mutating func parseTypeDefinition(isExtension: Bool) throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        let d = try description()
        let kw = lexer.token
        let kind: UInt8 = isKeyword(kw, "scalar") ? 0 : isKeyword(kw, "type") ? 1 : isKeyword(kw, "interface") ? 2
            : isKeyword(kw, "union") ? 3 : isKeyword(kw, "enum") ? 4 : isKeyword(kw, "input") ? 5 : 9
        if kind == 9 { throw lexer.error(at: kw.start, "Unexpected") }
        try lexer.advance()
        let n = try name()
        var interfaces = Span.empty
        if kind == 1 || kind == 2, isKeyword(lexer.token, "implements") {
            try lexer.advance()
            _ = try expectOptional(.amp)
            let base = scratch.sSlice.count
            repeat { _ = scratch.sSlice.append(try name()) } while try expectOptional(.amp)
            interfaces = Self.finish(&heap, &scratch.sSlice, from: base)
        }
        let dirs = try parseDirectives()
        var fields = Span.empty
        switch kind {
        case 1, 2:
            if try expectOptional(.braceL) {
                let base = scratch.sAFieldDef.count
                repeat {
                    let fs = start
                    let fd = try description()
                    let fn = try name()
                    let args = try parseArgumentDefs()
                    _ = try expect(.colon)
                    let type = try parseType()
                    let fdirs = try parseDirectives()
                    _ = scratch.sAFieldDef.append(AFieldDef(description: fd, name: fn, arguments: args, type: type, directives: fdirs, start: fs, end: end))
                } while try !expectOptional(.braceR)
                fields = Self.finish(&heap, &scratch.sAFieldDef, from: base)
            }
        case 3:
            if try expectOptional(.equals) {
                _ = try expectOptional(.pipe)
                let base = scratch.sSlice.count
                repeat { _ = scratch.sSlice.append(try name()) } while try expectOptional(.pipe)
                fields = Self.finish(&heap, &scratch.sSlice, from: base)
            }
        case 4:
            if try expectOptional(.braceL) {
                let base = scratch.sAEnumValue.count
                repeat {
                    let es = start
                    let ed = try description()
                    let en = try name()
                    let edirs = try parseDirectives()
                    _ = scratch.sAEnumValue.append(AEnumValue(description: ed, name: en, directives: edirs, start: es, end: end))
                } while try !expectOptional(.braceR)
                fields = Self.finish(&heap, &scratch.sAEnumValue, from: base)
            }
        case 5:
            if peek(.braceL) {
                try lexer.advance()
                fields = try parseInputValues(until: .braceR)
            }
        default: break
        }
        return heap.append(ATypeDef(kind: kind, isExtension: isExtension, description: d, name: n, interfaces: interfaces, directives: dirs, fields: fields, start: s, end: end))
    }

    mutating func parseArgumentDefs() throws(GraphQLSyntaxError) -> Span {
        guard try expectOptional(.parenL) else { return .empty }
        return try parseInputValues(until: .parenR)
    }

    mutating func parseInputValues(until close: TokenKind) throws(GraphQLSyntaxError) -> Span {
        let base = scratch.sAInputValue.count
        repeat {
            let s = start
            let d = try description()
            let n = try name()
            _ = try expect(.colon)
            let type = try parseType()
            let dv = try expectOptional(.equals) ? heap.append(try parseValue()) : UInt32.max
            let dirs = try parseDirectives()
            _ = scratch.sAInputValue.append(AInputValue(description: d, name: n, type: type, defaultValue: dv, directives: dirs, start: s, end: end))
        } while try !expectOptional(close)
        let span = Self.finish(&heap, &scratch.sAInputValue, from: base)
        return span
    }

    mutating func parseDirectiveDefinition() throws(GraphQLSyntaxError) -> UInt32 {
        let s = start
        let d = try description()
        try lexer.advance()
        _ = try expect(.at)
        let n = try name()
        let args = try parseArgumentDefs()
        let repeatable = isKeyword(lexer.token, "repeatable")
        if repeatable { try lexer.advance() }
        try lexer.advance()  // on
        _ = try expectOptional(.pipe)
        let base = scratch.sSlice.count
        repeat { _ = scratch.sSlice.append(try name()) } while try expectOptional(.pipe)
        return heap.append(ADirectiveDef(description: d, name: n, arguments: args, isRepeatable: repeatable,
            locations: Self.finish(&heap, &scratch.sSlice, from: base), start: s, end: end))
    }
}

// MARK: - Reading back (proof that the tree is complete): node counts by walking it.

/// Counts of the nodes reachable from a document's definitions.
public struct Census: Equatable, CustomStringConvertible {
    public var definitions = 0, fields = 0, spreads = 0, inlines = 0, arguments = 0, directives = 0, values = 0
    public var variables = 0, typeDefinitions = 0, fieldDefinitions = 0, inputValues = 0, enumValues = 0, names = 0
    public init() {}
    public var description: String {
        "defs \(definitions) fields \(fields) spreads \(spreads) inlines \(inlines) args \(arguments) dirs \(directives) values \(values) vars \(variables) types \(typeDefinitions) fieldDefs \(fieldDefinitions) inputs \(inputValues) enums \(enumValues) nameBytes \(names)"
    }
}

extension ArenaDocument {
    @inline(__always) func node<T>(_ offset: UInt32, _: T.Type) -> T {
        (heap.base.unsafelyUnwrapped + Int(offset)).load(as: T.self)
    }
    @inline(__always) func item<T>(_ span: Span, _ i: Int, _: T.Type) -> T {
        (heap.base.unsafelyUnwrapped + Int(span.start) + i * MemoryLayout<T>.stride).load(as: T.self)
    }

    public func census() -> Census {
        var c = Census()
        func name(_ s: Slice) { if s.start != UInt32.max { c.names += Int(s.count) } }
        func value(_ v: AValue) {
            c.values += 1
            if v.kind == 7 { for i in 0..<Int(v.payload.count) { value(item(v.payload, i, AValue.self)) } }
            if v.kind == 8 {
                for i in 0..<Int(v.payload.count) {
                    let f = item(v.payload, i, AObjectField.self)
                    name(f.name)
                    value(node(f.value, AValue.self))
                }
            }
        }
        func valueAt(_ offset: UInt32) { if offset != UInt32.max { value(node(offset, AValue.self)) } }
        func arguments(_ span: Span) {
            for i in 0..<Int(span.count) {
                let a = item(span, i, AArgument.self)
                c.arguments += 1
                name(a.name)
                valueAt(a.value)
            }
        }
        func directives(_ span: Span) {
            for i in 0..<Int(span.count) {
                let d = item(span, i, ADirective.self)
                c.directives += 1
                name(d.name)
                arguments(d.arguments)
            }
        }
        func selections(_ span: Span) {
            for i in 0..<Int(span.count) {
                let s = item(span, i, ASelection.self)
                switch s.kind {
                case 0:
                    let f = node(s.index, AField.self)
                    c.fields += 1
                    name(f.alias); name(f.name)
                    arguments(f.arguments); directives(f.directives); selections(f.selections)
                case 1:
                    let f = node(s.index, ASpread.self)
                    c.spreads += 1
                    name(f.name); directives(f.directives)
                default:
                    let f = node(s.index, AInline.self)
                    c.inlines += 1
                    name(f.typeCondition); directives(f.directives); selections(f.selections)
                }
            }
        }
        func type(_ offset: UInt32) {
            let t = node(offset, AType.self)
            if t.kind == 0 { name(t.name) } else { type(t.inner) }
        }
        func inputValues(_ span: Span) {
            for i in 0..<Int(span.count) {
                let v = item(span, i, AInputValue.self)
                c.inputValues += 1
                valueAt(v.description); name(v.name); type(v.type); valueAt(v.defaultValue); directives(v.directives)
            }
        }
        for i in 0..<Int(definitionList.count) {
            let d = item(definitionList, i, ADefinition.self)
            c.definitions += 1
            switch d.kind {
            case 0:
                let o = node(d.index, AOperation.self)
                valueAt(o.description); name(o.name)
                for j in 0..<Int(o.variables.count) {
                    let v = item(o.variables, j, AVariableDefinition.self)
                    c.variables += 1
                    valueAt(v.description); name(v.name); type(v.type); valueAt(v.defaultValue); directives(v.directives)
                }
                directives(o.directives); selections(o.selections)
            case 1:
                let f = node(d.index, AFragment.self)
                valueAt(f.description); name(f.name); name(f.typeCondition); directives(f.directives); selections(f.selections)
            case 2:
                let s = node(d.index, ASchemaDef.self)
                valueAt(s.description); directives(s.directives)
                for j in 0..<Int(s.operationTypes.count) { name(item(s.operationTypes, j, AOperationType.self).type) }
            case 3:
                let t = node(d.index, ATypeDef.self)
                c.typeDefinitions += 1
                valueAt(t.description); name(t.name)
                for j in 0..<Int(t.interfaces.count) { name(item(t.interfaces, j, Slice.self)) }
                directives(t.directives)
                switch t.kind {
                case 1, 2:
                    for j in 0..<Int(t.fields.count) {
                        let f = item(t.fields, j, AFieldDef.self)
                        c.fieldDefinitions += 1
                        valueAt(f.description); name(f.name); inputValues(f.arguments); type(f.type); directives(f.directives)
                    }
                case 3: for j in 0..<Int(t.fields.count) { name(item(t.fields, j, Slice.self)) }
                case 4:
                    for j in 0..<Int(t.fields.count) {
                        let e = item(t.fields, j, AEnumValue.self)
                        c.enumValues += 1
                        valueAt(e.description); name(e.name); directives(e.directives)
                    }
                case 5: inputValues(t.fields)
                default: break
                }
            default:
                let dd = node(d.index, ADirectiveDef.self)
                valueAt(dd.description); name(dd.name); inputValues(dd.arguments)
                for j in 0..<Int(dd.locations.count) { name(item(dd.locations, j, Slice.self)) }
            }
        }
        return c
    }
}
