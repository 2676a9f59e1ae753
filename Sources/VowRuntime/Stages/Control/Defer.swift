import VowPromises
import VowSyntax
import VowValue

/// `defer (PIPELINE)`: clean-up that runs when the script ends, whatever ends it.
struct DeferStage: StageDefinition {
    static let name = "defer"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let group = StageGroup.control
    static let synopsis = "defer (PIPELINE)"
    static let summary = "Registers PIPELINE to run when the script ends: normally, on a rejection, on Ctrl-C or SIGTERM."
    static let help = """
        Registers the group PIPELINE as clean-up and fulfils at once with the empty string (so the
        statement prints nothing). When the script ends for any reason (its last statement done, a
        rejection, `exit`, Ctrl-C, SIGTERM), the registered pipelines run in reverse order of
        registration, within 5 seconds in all; a second Ctrl-C skips what is left. Variables are
        read when the clean-up runs: `let tmp = run mktemp -d; defer (run rm -rf $tmp)`. In the
        REPL the clean-up runs when the REPL ends. Unlike `finally`, which is JavaScript's and
        takes its turns, `defer` is about the process, as a shell's `trap … EXIT`.
        """
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("defer (print cleaned)\necho work", "work\ncleaned"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard call.positional.count == 1, case .group(let pipeline) = call.positional[0].kind else {
            throw call.error(.syntax, "expected one group, the clean-up to run: defer (run rm -rf $tmp)")
        }
        let session = call.session
        return call.chain { input in
            session.deferred.append { call.runPipeline(pipeline, input: .null, context: ["in a defer"]) }
            return .value(.string(""))
        }
    }
}

extension DeferStage: TwinWriting {
    static let twinReference: String? = "`vow.defer(() => P)`: P is kept, and run (last first) when the main function has ended, or on SIGINT or SIGTERM before node exits"

    /// `vow.defer(() => P)`.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        guard case .group(let p)? = twin.positional(plan).first?.kind else { return twin.missing(name) }
        return TwinCode("vow.defer(() => \(twin.pipeline(p, input: "null", depth: depth)))", isPromise: false)
    }
}

extension DeferStage: StageExplaining {
    /// Kept for the end of the script.
    static func explanation(_ c: Explainer.Context) -> String? {
        "keeps its pipeline to run when the script ends (last registered first) and fulfils with the empty string at once"
    }
}
