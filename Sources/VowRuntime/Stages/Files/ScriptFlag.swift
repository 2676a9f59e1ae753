import VowPromises
import VowSyntax
import VowValue

/// `flag --NAME [VALUE] [--default V]`: a flag of the script's own, as `arg` is an argument.
struct ScriptFlagStage: ValueStage {
    static let name = "flag"
    /// In the JavaScript twin (docs/javascript-twin.md): `vow.flag(v, {default}, "--NAME", VALUE)`.
    static let twin = StageTwin.handlerTakingFlags("flag")
    static let group = StageGroup.files
    /// `--NAME` and VALUE are words as written.
    static let takesWordsAsWritten = true
    /// `flag --yes`: the first word is the flag it declares, not one of its own.
    static let namesAFlag = true
    static let positionalLimit: Int? = 2
    static let synopsis = "flag --NAME [VALUE] [--default V]"
    static let summary = "A flag of the script's own: true when --NAME is given (a switch), or the word after it (VALUE)."
    static let help = """
        `let yes = flag --yes` is true when the script is run with `--yes`, false otherwise;
        `let limit = flag --limit N --default 4` is the word after `--limit` (or in `--limit=8`),
        as text, as `arg` gives its arguments, or the default (null without one). A script that
        declares flags is checked before its first statement runs, with its arguments: a flag it
        does not declare, or a valued flag given no value, ends it with its usage line and
        status 2, and `--help` prints the usage line (`usage: clean.vow DIR [--yes] [--limit N]`)
        and ends it with status 0. Flags may stand anywhere among the arguments; `arg N` counts
        the others, and everything after `--` is an argument.
        """
    static let fallback = Flag.value("default", value: "V", help: "the value when a valued flag is not given")
    static let flags = [fallback.spec]
    static let examples = [
        StageExample("flag --yes | to-json", "false"),
        StageExample("flag --limit N --default 4", "4"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard case .string(let written)? = args[0], written.hasPrefix("--"), written.count > 2 else {
            throw call.error(.type, "the flag is written --NAME (flag --yes, flag --limit N)")
        }
        let name = String(written.dropFirst(2))
        let valued = args.count > 1
        let words = call.session.options.arguments
        var i = 0
        while i < words.count, words[i] != "--" {
            let w = words[i]
            i += 1
            if w == written {
                guard valued else { return .value(.bool(true)) }
                guard i < words.count, !words[i].hasPrefix("--") else {
                    throw call.error(.type, "--\(name) needs a value (\(args[1]?.stringValue ?? "VALUE"))")
                }
                return .value(.string(words[i]))
            }
            if valued, w.hasPrefix(written + "=") { return .value(.string(String(w.dropFirst(written.count + 1)))) }
        }
        if !valued { return .value(.bool(false)) }
        return .value(try args.value(Self.fallback) ?? .null)
    }

    /// The flags `program` declares: each one's name (`yes`) and, for a valued one, its VALUE.
    static func declared(in program: Program) -> [(name: String, value: String?)] {
        var out: [(name: String, value: String?)] = []
        program.forEachStage { s in
            guard s.name == Self.name, let first = s.arguments.first, case .flag(let f) = first.kind,
                !out.contains(where: { $0.name == f })
            else { return }
            var value: String? = nil
            if s.arguments.count > 1, case .word(let t) = s.arguments[1].kind { value = t.literalText }
            out.append((f, value))
        }
        return out
    }
}

extension ScriptFlagStage: StageExplaining {
    /// The generic note serves.
    static func explanation(_ c: Explainer.Context) -> String? { nil }
}
