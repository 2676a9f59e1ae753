// What every stage must declare for the planner, the twin writer and the explainer to need no
// switch on its name.
import VowSyntax
import XCTest

@testable import VowRuntime

final class StageCapabilityTests: XCTestCase {
    let stages = StageRegistry.builtins.stages

    /// A control stage writes its twin and its explanation itself.
    func test_everyControlStageWritesItsTwinAndItsExplanation() {
        for stage in stages {
            guard case .control = stage.twin else { continue }
            XCTAssertTrue(stage is any TwinWriting.Type, "\(stage.name): a control stage must conform to TwinWriting")
            XCTAssertTrue(stage is any StageExplaining.Type, "\(stage.name): a control stage must conform to StageExplaining")
            XCTAssertNotNil((stage as? any TwinWriting.Type)?.twinReference, "\(stage.name): no reference line for :help")
        }
    }

    /// A stage with no twin says so, and those are few and known.
    func test_theStagesWithoutATwinAreKnown() {
        var without: Set<String> = []
        for stage in stages {
            let twin: StageTwin = stage.twin
            if case .none = twin { without.insert(stage.name) }
        }
        XCTAssertEqual(without, ["iterate", "jobs", "api", "op"])
    }

    /// A stage that declares flags has a twin that is given them (or writes its twin itself):
    /// a handler that receives no flags would ignore them (`to-json --pretty` printed compact).
    func test_aStageWithFlagsHasATwinThatReceivesThem() {
        for stage in stages where !stage.flags.isEmpty && !(stage is any TwinWriting.Type) {
            switch stage.twin {
            case .handler(let f), .promise(let f):
                XCTFail("\(stage.name) declares \(stage.flags.map { "--" + $0.name }.joined(separator: ", ")) but its twin vow.\(f) receives no flags")
            default: break
            }
        }
    }

    /// A stage whose twin returns a promise says when it settles (`:explain`), and every prelude
    /// function a stage names exists in the prelude.
    func test_everyWaitingStageSaysWhenItSettlesAndNamesAPreludeFunctionThatExists() {
        for stage in stages {
            let function: String
            switch stage.twin {
            case .promise(let f), .promiseTakingFlags(let f, _):
                XCTAssertNotNil(stage.settlement, "\(stage.name): a stage that returns a promise must declare its settlement")
                function = f
            case .handler(let f), .handlerTakingFlags(let f):
                function = f
            case .control, .none:
                continue
            }
            // A function the stage writes beside itself is added to the prelude (`twinFunction`).
            if stage.twinFunction != nil { continue }
            let defined = ["    \(function)(", "    \(function): ", "    async \(function)(", "    \"\(function)\": ", "    \"\(function)\"("]
            XCTAssertTrue(defined.contains { TwinSource.prelude.contains($0) }, "\(stage.name): vow.\(function) is not in the prelude")
        }
    }

    /// The capabilities the evaluator and the twin read, stage by stage.
    func test_capabilitiesAreDeclaredWhereTheyAreTrue() {
        var reruns: Set<String> = [], handlers: Set<String> = [], seeing: Set<String> = [], passing: Set<String> = []
        var wrapping: Set<String> = [], taking: Set<String> = [], looking: Set<String> = []
        for stage in stages {
            let name = stage.name
            if stage.rerunsUpstream { reruns.insert(name) }
            let role: RejectionRole = stage.onRejection
            if role.isHandler { handlers.insert(name) }
            if role.seesRejection { seeing.insert(name) }
            if stage.passesStream { passing.insert(name) }
            if stage.innerIsHandler { wrapping.insert(name) }
            if stage.takesStream([]) { taking.insert(name) }
            if stage is any LooksAhead.Type { looking.insert(name) }
        }
        XCTAssertEqual(reruns, ["retry", "until"])
        XCTAssertEqual(handlers, ["catch", "finally"])
        XCTAssertEqual(seeing, ["catch", "finally", "retry", "timeout"])
        XCTAssertEqual(passing, ["tap", "catch", "finally", "timeout", "retry", "where", "csv", "tsv", "to-csv", "to-tsv"])
        XCTAssertEqual(wrapping, ["then", "catch", "finally", "tap"])
        XCTAssertEqual(taking, ["each", "take", "write", "print", "len", "where", "csv", "tsv", "to-csv", "to-tsv", "tap", "reduce"])
        XCTAssertEqual(looking, ["json", "read", "each", "where"])
    }
}
