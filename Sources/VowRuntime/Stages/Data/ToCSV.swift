import VowPromises
import VowSyntax
import VowValue

/// `to-csv`: records written as CSV (RFC 4180).
struct ToCSVStage: ValueStage {
    static let name = "to-csv"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("to-csv")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "to-csv [--columns a,b] [--no-header]"
    static let summary = "Writes a list of records (or of lists) as CSV text (RFC 4180), a header line first."
    static let help = """
        One line per element, lines separated by CRLF as RFC 4180 says (none after the last); the columns are every key, in the
        order keys first appear (as `table` chooses them), or --columns; a header line names them
        unless --no-header. A field is quoted when it holds a comma, a quote or a line break,
        quotes doubled (Python's csv module writes the same). Text is written as it is, null as
        an empty field, numbers and booleans as JSON writes them, lists and records as compact
        JSON. A list element that is a list is a row of its own fields. On a stream of records it
        fulfils at once with a stream of lines, the header first (the first record's keys, or
        --columns).
        """
    static let flags = [Delimited.columns.spec, Delimited.noHeader.spec]
    /// A stream of records is written row by row.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    /// A stream in gives a stream out, made as it arrives.
    static let passesStream = true
    static let examples = [
        StageExample("echo [{a: \"x,y\"}] | to-csv | lines | to-json", #"["a","\"x,y\""]"#),
        StageExample("echo [{name: Ada, n: 3}, {name: Bob, tags: [x]}] | to-csv --columns name,tags | lines | to-json", #"["name,tags","Ada,","Bob,\"[\"\"x\"\"]\""]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        try Delimited.write(input, args, call, stage: Self.name, delimiter: ",")
    }
}
