import Foundation
import Synchronization
import VowPromises
import VowValue

/// `env NAME`: an environment variable.
struct EnvStage: ValueStage {
    static let name = "env"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.handler("env")
    static let group = StageGroup.files
    /// An unset variable is null, and a program prints it: it was asked for.
    static let inPrograms = ProgramPrinting.value
    static let synopsis = "env NAME"
    static let summary = "The value of an environment variable, or null when it is not set."
    static let help = "Fulfils with the environment variable NAME as a string, or null when it is not set."
    static let examples = [StageExample("env VOW_SURELY_UNSET_VARIABLE", "null")]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let name = try args.string(0, "NAME")
        return .value(ProcessInfo.processInfo.environment[name].map(Value.string) ?? .null)
    }
}
