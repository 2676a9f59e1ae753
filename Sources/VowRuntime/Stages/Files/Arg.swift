import VowPromises
import VowSyntax
import VowValue

/// `arg N [NAME] [--default V]`: the script's argument N, or its default; a script run without
/// a required one ends with a usage line made from every `arg` it declares.
struct ArgStage: ValueStage {
    static let name = "arg"
    /// In the JavaScript twin (docs/javascript-twin.md): `vow.arg(N, default, usage)`.
    static let twin = StageTwin.control
    static let group = StageGroup.files
    static let synopsis = "arg N [NAME] [--default V]"
    static let summary = "The script's argument N (as text), or --default; missing and required, the script ends with a usage line."
    static let help = """
        `let host = arg 1 HOST` reads the first argument after the script's name; `let port = arg 2
        PORT --default 8080` gives 8080 when there is no second. A required argument that is
        missing ends the script at once with status 2 and a usage line made from every `arg`
        the script declares, in order (`usage: deploy.vow HOST [PORT]`), as a program's argument
        parser would. N counts the words that are not flags (`--yes`, `--limit=4`; every word after
        `--`), so `vow deploy.vow --dry-run prod` gives `prod` as argument 1. The script's arguments are checked before its first statement runs: a
        script that lacks one does nothing but print the usage line, wherever its `arg` stands
        (an `arg` without --default is required even on a branch that may not run). NAME is
        what the usage line calls it (ARG1, ARG2… by default). `$1`, `$2`
        and `$args` read the same arguments without a check.
        """
    static let fallback = Flag.value("default", value: "V", help: "the value when the argument is not given (it is then optional)")
    static let flags = [fallback.spec]
    static let examples = [
        StageExample("arg 1 --default world | format \"hello {}\"", "hello world"),
        StageExample("arg 1 NAME", "usage: SCRIPT NAME", fails: true),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        let n = try args.integer(args[0] ?? .null, "N")
        guard n >= 1 else { throw call.error(.type, "N must be 1 or more, got \(n)", argument: 0) }
        let valued = Set(((try? Parser.parse(call.site.source)).map(ScriptFlagStage.declared) ?? []).filter { $0.value != nil }.map(\.name))
        let given = Self.positional(call.session.options.arguments, valued: valued)
        if n <= given.count { return .value(.string(given[n - 1])) }
        if let d = try args.value(Self.fallback) { return .value(d) }
        let usage = Self.usage(of: call.site.source, script: call.session.options.scriptName)
        throw VowError(.exit, usage, details: ["status": .int(2), "missing": .int(n)])
    }

    /// The highest N of an `arg N` in `program` that has no `--default` (0 when there is none):
    /// a script given fewer arguments ends before its first statement runs.
    static func required(in program: Program) -> Int {
        var highest = 0
        program.forEachStage { s in
            guard s.name == Self.name,
                !s.arguments.contains(where: { if case .flag(Self.fallback.name) = $0.kind { return true } else { return false } }),
                let first = s.arguments.first, case .number(_, true, let t) = first.kind, let n = Int(t)
            else { return }
            highest = max(highest, n)
        }
        return highest
    }

    /// True when `program` has an `arg` stage anywhere (its `--help` prints the usage line).
    static func isDeclared(in program: Program) -> Bool { program.containsStage(named: Self.name) }

    /// The script's arguments that `arg N` counts: every word but a flag (`--yes`, `--limit=4`),
    /// all of them after `--`. `$args` and `$1` read the words as given.
    /// The value after a flag in `valued` (declared `flag --limit N`) is the flag's, not counted.
    static func positional(_ arguments: [String], valued: Set<String> = []) -> [String] {
        var out: [String] = []
        var flagsEnded = false
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if flagsEnded || !a.hasPrefix("--") || a == "-" {
                out.append(a)
            } else if a == "--" {
                flagsEnded = true
            } else if valued.contains(String(a.dropFirst(2))), i < arguments.count, !arguments[i].hasPrefix("--") {
                i += 1
            }
        }
        return out
    }

    /// `usage: SCRIPT A [B]…`: every `arg` stage of `source`, by its number, optional ones in
    /// brackets.
    static func usage(of source: SourceText, script: String?) -> String {
        var declared: [Int: (name: String, optional: Bool)] = [:]
        (try? Parser.parse(source))?.forEachStage { s in
            guard s.name == Self.name else { return }
            let words = s.arguments.compactMap { a -> String? in
                if case .number(_, true, let t) = a.kind { return t }
                if case .word(let t) = a.kind { return t.literalText }
                return nil
            }
            let optional = s.arguments.contains { if case .flag(Self.fallback.name) = $0.kind { return true } else { return false } }
            if let first = words.first, let n = Int(first), declared[n] == nil {
                declared[n] = (words.count > 1 ? words[1] : "ARG\(n)", optional)
            }
        }
        var names = declared.keys.sorted().map { declared[$0]!.optional ? "[\(declared[$0]!.name)]" : declared[$0]!.name }
        if let program = try? Parser.parse(source) {
            names += ScriptFlagStage.declared(in: program).map { "[--\($0.name)\($0.value.map { " " + $0 } ?? "")]" }
        }
        // A program with no file (`-c`, the REPL) has no name to give.
        let given = script ?? (source.name.hasPrefix("<") ? "SCRIPT" : source.name)
        let script = String(given.split(separator: "/").last ?? Substring(given))
        return "usage: " + ([script] + names).joined(separator: " ")
    }
}

extension ArgStage: TwinWriting {
    static let twinReference: String? = "`vow.arg(N, default, usage)`: `process.argv[N + 1]`, or the default, or the usage line on stderr and `process.exit(2)`"

    /// `vow.arg(N, default, usage)`, the usage line written when the twin is.
    static func twinBody(_ plan: StagePlan, input: String, depth: Int, in twin: JavaScriptTwin) -> TwinCode? {
        let positional = twin.positional(plan)
        guard let n = positional.first else { return twin.missing(name) }
        let fallback = twin.flag(Self.fallback, in: plan).map { twin.value($0, input: input, depth: depth) } ?? "undefined"
        let usage = jsString(Self.usage(of: twin.source, script: nil))
        return TwinCode("vow.arg(\(twin.value(n, input: input, depth: depth)), \(fallback), \(usage))", isPromise: false)
    }
}

extension ArgStage: StageExplaining {
    /// The generic note serves.
    static func explanation(_ c: Explainer.Context) -> String? { nil }
}
