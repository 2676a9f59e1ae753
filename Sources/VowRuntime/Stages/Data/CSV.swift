import VowPromises
import VowSyntax
import VowValue

/// `csv`: text read as CSV (RFC 4180) into a list of records.
struct CSVStage: ValueStage {
    static let name = "csv"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handlerTakingFlags("csv")
    /// A pure function of its input and arguments.
    static let isPure = true
    static let group = StageGroup.data
    static let synopsis = "csv [--no-header]"
    static let summary = "Reads CSV text (RFC 4180) into a list of records keyed by its header row."
    static let help = """
        Fields are separated by commas and records by line breaks (CRLF or LF); a field in double
        quotes may hold commas, line breaks and doubled quotes (""). The first row names the
        keys; a shorter row gives null for the keys it lacks, a longer one is an error naming it,
        and an empty line is skipped. Every field is text (`to_number(x)` in pick makes a number).
        With --no-header every row is a list of fields. On a stream of lines (`read FILE --stream`)
        it fulfils at once with a stream of records, a record that spans lines kept until it is
        complete. A response is read through its body.
        """
    static let flags = [Delimited.noHeader.spec]
    /// A stream of lines is read row by row.
    static func takesStream(_ positional: ArgumentList) -> Bool { true }
    /// A stream in gives a stream out, made as it arrives.
    static let passesStream = true
    static let examples = [
        StageExample("echo \"name,n\\nAda,3\\nBob,12\" | csv | to-json", #"[{"name":"Ada","n":"3"},{"name":"Bob","n":"12"}]"#),
        StageExample("echo 'a,b\n\"x,y\",\"say \"\"hi\"\"\"' | csv | pick '[0]' | to-json", #"{"a":"x,y","b":"say \"hi\""}"#),
        StageExample("echo \"1,2\\n3,4\" | csv --no-header | to-json", #"[["1","2"],["3","4"]]"#),
        StageExample("echo \"a,b\\n1,2,3\" | csv", "error[type]: csv: row 2 has 3 fields, the header names 2", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        try Delimited.read(input, args, call, stage: Self.name, delimiter: ",")
    }
}
