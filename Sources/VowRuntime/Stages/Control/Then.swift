import VowPromises
import VowValue

/// `then STAGE…`: runs a stage on the fulfilled value (the same as `| STAGE`).
struct ThenStage: StageDefinition {
    static let name = "then"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "then STAGE…"
    static let summary = "Runs STAGE on the value when the input fulfils; `| then X` is `| X`."
    static let help = """
        Each `|` is already a then: the next stage runs when the previous one fulfils. `then` spells
        it out, which reads well before a stage that starts a new request:
        `pick login | then fetch "https://h/users/{}"`. A rejection skips it.
        """
    static let argumentStyle = ArgumentStyle.stage
    static let examples = [
        StageExample("resolve 41 | then format \"{}!\"", "41!"),
        StageExample("reject no | then echo never | catch echo caught", "caught"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let inner = call.innerStage() else { throw VowError(.type, "then: missing STAGE (e.g. then format \"{}\")") }
        return call.chain { input, _ in try inner(input) }
    }
}
