import Glibc

/// A range of the source, as UTF-8 byte offsets (start inclusive, end exclusive).
///
/// Kept in eight bytes (two 32-bit offsets): every stage and argument of a program holds one, and
/// a long pipeline holds millions. An offset past 4 GiB, which no program that fits in memory
/// reaches, is clamped, never a trap.
public struct SourceSpan: Sendable, Equatable, Hashable {
    private let first: UInt32
    private let pastLast: UInt32
    /// The first byte.
    public var start: Int { Int(first) }
    /// One past the last byte.
    public var end: Int { Int(pastLast) }
    /// Makes a span.
    public init(start: Int, end: Int) {
        self.first = UInt32(clamping: start)
        self.pastLast = UInt32(clamping: end)
    }
}

/// A program's text and name, with line lookup for diagnostics.
public final class SourceText: Sendable {
    /// The whole text (made from `bytes` when asked: only they are kept, so that a long program
    /// is held once while it runs).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The file name, or `<command>` for `-c`, `<stdin>`, `<repl>`.
    public let name: String
    /// The text as UTF-8 bytes.
    public let bytes: [UInt8]
    private let lineStarts: [Int]

    /// Wraps `text` named `name`.
    public init(_ text: String, name: String = "<command>") {
        self.name = name
        self.bytes = Array(text.utf8)
        self.lineStarts = Self.lineStarts(of: bytes)
    }

    /// The offset of each line's first byte: 0 and the offset after each newline, found with
    /// `memchr` (a byte-by-byte loop took 2% of parsing a long program).
    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var at = 0
            while at < buffer.count, let found = memchr(base + at, Int32(UInt8(ascii: "\n")), buffer.count - at) {
                let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                starts.append(offset + 1)
                at = offset + 1
            }
        }
        return starts
    }

    /// True when `byte` is one of the text's bytes (`memchr`).
    public func contains(byte: UInt8) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    public func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        let off = max(0, min(offset, bytes.count))
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= off { lo = mid } else { hi = mid - 1 }
        }
        let col = String(decoding: bytes[lineStarts[lo]..<off], as: UTF8.self).count + 1
        return (lo + 1, col)
    }

    /// The text of a 1-based line, without its newline.
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }
}

/// A whole program: its statements in order.
public struct Program: Sendable {
    /// The statements.
    public let statements: [Statement]
    /// The source they came from.
    public let source: SourceText
    /// Every name a stage is written with anywhere in the program (statements, `def` bodies,
    /// groups, list elements, record fields), as the parser read them: whether a program has a
    /// stage of a name is a look-up, not a walk of its tree (`containsStage(named:)`).
    public let stageNames: Set<String>
    /// True when an element of a list literal anywhere in the program is one plain word
    /// (`[len, x]`), as the parser found: what a warning about a stage's name written alone in a
    /// list looks for (`Planner.mayWarn`).
    public let listsHoldLoneWords: Bool
}

/// One statement.
public struct Statement: Sendable {
    /// What kind of statement.
    public enum Kind: Sendable {
        /// `PIPELINE` or `PIPELINE &`.
        case pipeline(Pipeline, background: Bool)
        /// `let NAME = PIPELINE`.
        case letBinding(name: String, nameSpan: SourceSpan, value: Pipeline)
        /// `def NAME(a, b) = PIPELINE`, or `async def …` (`isAsync`): JavaScript's async function,
        /// whose stages run one after another in the same turn until an `await`.
        case def(name: String, params: [String], body: Pipeline, isAsync: Bool)
        /// `:name rest of the line` (a meta-command).
        case meta(name: String, argument: String, argumentSpan: SourceSpan)
    }
    /// The kind.
    public let kind: Kind
    /// The whole statement.
    public let span: SourceSpan
    /// Makes a statement.
    public init(kind: Kind, span: SourceSpan) {
        self.kind = kind
        self.span = span
    }
}

/// Stages joined by `|`.
///
/// One reference to a block holding its stages and span (`PipelineStorage`): a group `(…)` is
/// then a case of `ArgumentKind` that needs no box of its own, and a pipeline of one stage is
/// one allocation.
@frozen public struct Pipeline: @unchecked Sendable {
    @usableFromInline let storage: PipelineStorage
    /// The stages, in order.
    @inlinable public var stages: StageNodes { StageNodes(storage: storage) }
    /// The whole pipeline.
    @inlinable public var span: SourceSpan { storage.head.pointee.span }
    /// Makes a pipeline.
    public init(stages: [StageNode], span: SourceSpan) {
        self.storage = PipelineStorage.make(stages, span: span)
    }
    /// Makes a pipeline of one stage, spanning it.
    public init(one stage: StageNode) {
        self.storage = PipelineStorage.make(one: stage)
    }
    /// A pipeline of the block `storage`.
    init(storage: PipelineStorage) {
        self.storage = storage
    }

    /// The text and place of the pipeline when it is one plain word and nothing else (an
    /// element `len` of `[len, x]`: text, though a stage may have that name); nil otherwise.
    /// The parser notes a list holding one (`Program.listsHoldLoneWords`) and the warnings
    /// look for it with this one test.
    public var loneWord: (text: String, span: SourceSpan)? {
        guard stages.count == 1, case .value(let a) = stages[0].head, case .word(let t) = a.kind, let text = t.literalText
        else { return nil }
        return (text, a.span)
    }
}

/// One stage: a named stage with arguments, or a value (`$x`, `%2`, `[…]`, `(…)`).
public struct StageNode: Sendable {
    /// How the stage starts.
    public enum Head: Sendable {
        /// `NAME ARG…`.
        case named(String, SourceSpan)
        /// A value stage.
        case value(Argument)
    }
    /// The head.
    public let head: Head
    /// The arguments after the name, flags included, in order (one kept in place).
    public let arguments: ArgumentList
    /// The whole stage.
    public let span: SourceSpan
    /// Makes a stage.
    public init(head: Head, arguments: ArgumentList, span: SourceSpan) {
        self.head = head
        self.arguments = arguments
        self.span = span
    }

    /// The stage's name, or nil for a value stage.
    public var name: String? {
        if case .named(let n, _) = head { return n }
        return nil
    }
}

/// What an argument is.
///
/// Every case has a payload, boxed (`null` and `undefined` an empty one, which Swift shares and
/// never allocates), but a group's, which is one reference already (`Pipeline`): a copy of a
/// kind is then one retain, where a kind with cases of no payload was copied by a call that
/// told its sixteen cases apart, dearer than the retain.
/// A long pipeline copies its arguments' kinds millions of times (`ArgumentList`, plans).
/// `case .null` still matches; one is made as `.null(())`.
public enum ArgumentKind: Sendable {
    /// A bare word (URL, path, JMESPath); interpolates `{}` and `$name`.
    indirect case word(Template)
    /// A 'single-quoted' string: no escapes, no interpolation.
    indirect case rawString(String)
    /// A "double-quoted" string with escapes and interpolation.
    indirect case string(Template)
    /// A number; `isInteger` when written without a fraction or exponent (`text` keeps it exact).
    indirect case number(Double, isInteger: Bool, text: String)
    /// `true` / `false`.
    indirect case boolean(Bool)
    /// `null` (its payload empty: see above).
    indirect case null(Void)
    /// `undefined`: JavaScript's, apart from null (`Value.undefined`) (its payload empty).
    indirect case undefined(Void)
    /// `250ms`, `2s`, `1.5m`, `1h`: in seconds.
    indirect case duration(seconds: Double, text: String)
    /// `[a, b]`: elements are pipelines.
    indirect case list([Pipeline])
    /// `{key: value, "k 2": $x}`: values are pipelines.
    indirect case record([(key: String, keySpan: SourceSpan, value: Pipeline)])
    /// `$name`, `$name.PATH`, `$_` (name `_`), `$1`, `$args`.
    indirect case variable(name: String, path: String?)
    /// `%N`.
    indirect case job(Int)
    /// `( pipeline )`.
    case group(Pipeline)
    /// `--name`; its value, if it takes one, is the next argument.
    indirect case flag(String)
}

/// One argument with its span.
public struct Argument: Sendable {
    /// What it is.
    public let kind: ArgumentKind
    /// Where it is.
    public let span: SourceSpan
    /// Makes an argument.
    public init(kind: ArgumentKind, span: SourceSpan) {
        self.kind = kind
        self.span = span
    }

    /// True for a group `( … )`: a pipeline of its own.
    public var isGroup: Bool {
        if case .group = kind { return true }
        return false
    }
}

/// Text with interpolations: `{}`, `{PATH}`, `$name`, `${name.PATH}`.
public struct Template: Sendable {
    /// One piece of a template.
    public enum Part: Sendable, Equatable {
        /// Literal text.
        case literal(String)
        /// `{}` (path nil) or `{PATH}`: the stage input or a part of it.
        case input(path: String?)
        /// `$name`, `$name.PATH` or `${name.PATH}`.
        case variable(name: String, path: String?)
    }
    /// The pieces in order.
    public let parts: [Part]
    /// Makes a template.
    public init(parts: [Part]) { self.parts = parts }

    /// True when there is nothing to interpolate.
    public var isLiteral: Bool { literalText != nil }

    /// The text when the template is a plain literal.
    public var literalText: String? {
        if parts.isEmpty { return "" }
        if parts.count == 1, case .literal(let s) = parts[0] { return s }
        return nil
    }

    /// The template as it was written, escapes read, when a stage reads it as an expression
    /// rather than as text to fill in (`pick "{id: id}"`, `where "total > $min"`): `{PATH}`
    /// stays `{PATH}`, `$name` stays `$name`, `${name.PATH}` is `$name.PATH`.
    public var expressionText: String {
        if let text = literalText { return text }
        return parts.map { part -> String in
            switch part {
            case .literal(let s): return s
            case .input(let path): return "{" + (path ?? "") + "}"
            case .variable(let name, let path): return "$" + name + (path.map { "." + $0 } ?? "")
            }
        }.joined()
    }
}

extension Argument {
    /// A literal word as its characters (`007`, `1.50`, `10ms`, `true`, `null`), for a stage that
    /// takes words as written; nil for anything else.
    public var wordAsWritten: String? {
        switch kind {
        case .number(_, _, let text), .duration(_, let text): return text
        case .boolean(let b): return b ? "true" : "false"
        case .null: return "null"
        case .undefined: return "undefined"
        case .flag(let name): return "--" + name
        default: return nil
        }
    }

    /// The argument as an expression's text, when a stage reads it as one: a word, a string
    /// (`Template.expressionText`) or a raw string; nil for anything else (a variable, a group…).
    public var expressionText: String? {
        switch kind {
        case .word(let t), .string(let t): return t.expressionText
        case .rawString(let s): return s
        default: return nil
        }
    }
}

/// A syntax error: what was wrong, where, and what was expected.
public struct SyntaxError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let message: String
    /// Where.
    public let span: SourceSpan
    /// 1-based line.
    public let line: Int
    /// 1-based column (characters).
    public let column: Int
    /// True when more input could complete the program (an open bracket or quote, a trailing |).
    public let isIncomplete: Bool

    /// Makes an error.
    public init(message: String, span: SourceSpan, line: Int, column: Int, isIncomplete: Bool) {
        self.message = message
        self.span = span
        self.line = line
        self.column = column
        self.isIncomplete = isIncomplete
    }

    /// `syntax: message at line:column`.
    public var description: String { "\(message) at line \(line), column \(column)" }

    /// The error as vow prints it: the message, the place, the line and a caret under the culprit.
    public func render(source: SourceText, colors: Bool = false) -> String {
        let red = colors ? "\u{1B}[1;31m" : "", blue = colors ? "\u{1B}[34m" : "", reset = colors ? "\u{1B}[0m" : ""
        var text = source.lineText(line)
        var width = max(1, min(text.count - (column - 1), source.lineColumn(of: span.end).column - column))
        var pad = column - 1
        // A long line (a pipeline of 50,000 steps) is shown as a window around the culprit.
        let limit = 240
        if text.count > limit {
            let chars = Array(text)
            let start = max(0, min(pad - 40, chars.count - limit))
            let end = min(chars.count, start + limit)
            text = (start > 0 ? "…" : "") + String(chars[start..<end]) + (end < chars.count ? "…" : "")
            pad = pad - start + (start > 0 ? 1 : 0)
            width = max(1, min(width, end - (column - 1)))
        }
        return """
            \(red)error[syntax]\(reset): \(message)
              \(blue)-->\(reset) \(source.name):\(line):\(column)
              \(blue)│\(reset) \(text)
              \(blue)│\(reset) \(String(repeating: " ", count: pad))\(red)\(String(repeating: "^", count: width))\(reset)
            """
    }
}
