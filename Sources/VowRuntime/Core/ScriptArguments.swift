import VowSyntax

/// A script's arguments, checked before its first statement runs.
public enum ScriptArguments {
    /// The usage line when `program`, given `given` arguments, lacks one that an `arg` without
    /// `--default` requires (nil when it has them all): `usage: deploy.vow HOST [PORT]`. Checked
    /// before the first statement runs, so nothing has acted yet.
    public static func missing(in program: Program, given: Int, script: String?) -> String? {
        guard given < ArgStage.required(in: program) else { return nil }
        return ArgStage.usage(of: program.source, script: script)
    }

    /// The usage line when `program`, given the words `arguments`, lacks one that an `arg`
    /// without `--default` requires (flags are not counted: `ArgStage.positional`).
    public static func missing(in program: Program, arguments: [String], script: String?) -> String? {
        guard ArgStage.positional(arguments).count < ArgStage.required(in: program) else { return nil }
        return ArgStage.usage(of: program.source, script: script)
    }
}
