import VowSyntax

/// A script's arguments, checked before its first statement runs.
public enum ScriptArguments {
    /// What a script given the words `arguments` does before its first statement: nothing (nil),
    /// or prints `text` (the usage line, on standard output for `--help`, else on standard
    /// error with what is wrong) and ends with `status`: `--help` (when the script declares an
    /// `arg` or a `flag`) is status 0; a flag it does not declare (when it declares any), a
    /// valued flag with no value, or a required argument missing is status 2.
    public static func check(_ program: Program, arguments: [String], script: String?) -> (text: String, toStandardOutput: Bool, status: Int32)? {
        // Most programs declare nothing: the names the parser read say so, without a walk.
        guard program.containsStage(named: ArgStage.name) || program.containsStage(named: ScriptFlagStage.name) else { return nil }
        let flags = ScriptFlagStage.declared(in: program)
        let required = ArgStage.required(in: program)
        let declaresArgs = ArgStage.isDeclared(in: program)
        let usage = { ArgStage.usage(of: program.source, script: script) }
        let words = arguments.prefix { $0 != "--" }
        if words.contains("--help"), declaresArgs || !flags.isEmpty, !flags.contains(where: { $0.name == "help" }) {
            return (usage(), true, 0)
        }
        if !flags.isEmpty {
            var i = words.startIndex
            while i < words.endIndex {
                let w = words[i]
                i += 1
                guard w.hasPrefix("--") else { continue }
                let name = String(w.dropFirst(2).prefix { $0 != "=" })
                guard let flag = flags.first(where: { $0.name == name }) else {
                    return (usage() + "\nunknown flag --\(name)", false, 2)
                }
                if let value = flag.value, !w.contains("=") {
                    guard i < words.endIndex, !words[i].hasPrefix("--") else { return (usage() + "\n--\(name) needs a value (\(value))", false, 2) }
                    i += 1
                }
            }
        }
        let valued = Set(flags.filter { $0.value != nil }.map(\.name))
        if ArgStage.positional(arguments, valued: valued).count < required { return (usage(), false, 2) }
        return nil
    }
}
