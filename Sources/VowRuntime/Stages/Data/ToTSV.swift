import VowPromises
import VowSyntax
import VowValue

/// `to-tsv`: records written as tab-separated values.
struct ToTSVStage: ValueStage {
    static let name = "to-tsv"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("to-tsv")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "to-tsv [--columns a,b] [--no-header]"
    static let summary = "Writes a list of records (or of lists) as tab-separated text, a header line first."
    static let help = """
        As `to-csv`, with a tab between fields instead of a comma (a field holding a tab, a quote
        or a line break is quoted).
        """
    static let flags = [Delimited.columns.spec, Delimited.noHeader.spec]
    /// A stream of records is written row by row.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    /// A stream in gives a stream out, made as it arrives.
    static let passesStream = true
    static let examples = [
        StageExample("echo [{a: 1, b: x}] | to-tsv | lines | to-json", #"["a\tb","1\tx"]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        try Delimited.write(input, args, call, stage: Self.name, delimiter: "\t")
    }
}
