import VowPromises
import VowSyntax
import VowValue

/// `tsv`: text read as tab-separated values into a list of records.
struct TSVStage: ValueStage {
    static let name = "tsv"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("tsv")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "tsv [--no-header]"
    static let summary = "Reads tab-separated text into a list of records keyed by its header row."
    static let help = """
        As `csv`, with a tab between fields instead of a comma (the quoting is the same: a field in
        double quotes may hold tabs, line breaks and doubled quotes). With --no-header every row is
        a list of fields; a stream of lines gives a stream of records.
        """
    static let flags = [Delimited.noHeader.spec]
    /// A stream of lines is read row by row.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    /// A stream in gives a stream out, made as it arrives.
    static let passesStream = true
    static let examples = [
        StageExample("echo \"name\\tn\\nAda\\t3\" | tsv | to-json", #"[{"name":"Ada","n":"3"}]"#),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        try Delimited.read(input, args, call, stage: Self.name, delimiter: "\t")
    }
}
