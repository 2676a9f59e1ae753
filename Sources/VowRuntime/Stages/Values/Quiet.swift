import VowPromises
import VowValue

/// `quiet`: a statement that prints nothing.
struct QuietStage: ValueStage {
    static let name = "quiet"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("quiet")
    /// A pure function of its input.
    static let isPure = true
    static let group = StageGroup.values
    static let synopsis = "quiet"
    static let summary = "Ends a statement whose value should not be printed: fulfils with the empty string."
    static let help = """
        Fulfils with the empty string, which a statement does not print, so that a statement run for
        its effect (`run mkdir -p out | quiet`, `fetch $api/ping | quiet`) prints nothing. A
        rejection still prints its error: quiet waits for what is upstream, as any stage does.
        """
    static let examples = [StageExample("echo 1 | quiet | then echo done", "done")]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        .value(.string(""))
    }
}
