import Dispatch
import Foundation
import Synchronization
import VowPromises
import VowRuntime
import VowSyntax
import VowValue
import VowHTTP
import VowOpenAPI

/// Help texts, generated from the stage definitions.
public enum Help {
    /// `:help` (every stage by group) or `:help NAME` (one stage).
    public static func text(for topic: String?, registry: StageRegistry) -> String {
        if topic == "syntax" { return syntax }
        if topic == "keys" { return keys }
        if let topic, let s = registry.stage(named: topic) {
            var out = "\(s.synopsis)\n\n\(s.summary)\n\n\(s.help)\n\nIn JavaScript: \(JavaScriptTwin.reference(for: s))."
            if !s.flags.isEmpty {
                out += "\n\nFlags:"
                for f in s.flags { out += "\n  --\(f.name)\(f.value.map { " " + $0 } ?? "")  \(f.help)" }
            }
            if !s.examples.isEmpty {
                out += "\n\nExamples:"
                for ex in s.examples { out += "\n  \(ex.source.replacingOccurrences(of: "\n", with: "\n  "))\n    → \(ex.output.replacingOccurrences(of: "\n", with: "\n      "))" }
            }
            return out
        }
        if let topic { return "no help for '\(topic)'" + (registry.suggestion(for: topic).map { " (did you mean '\($0)'?)" } ?? "") }
        var out = "vow: pipelines of promises. Stages:\n"
        for g in StageGroup.allCases {
            out += "\n\(g.rawValue):\n"
            for s in registry.stages where s.group == g { out += "  \(s.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(s.summary)\n" }
        }
        out += "\n:help NAME shows a stage's flags and examples; :help syntax the language; :help keys the keys."
        return out
    }

    /// `:help NAME.OPERATION`: the call, what it does, its parameters, and the fields of its
    /// body and of its response, as the API's description gives them.
    public static func operation(_ op: APIOperation, api: String) -> String {
        let pathParameters = op.parameters.filter { $0.location == "path" }.map(\.name)
        var out = "op \(api).\(op.operationId ?? "?")" + pathParameters.map { " " + $0.uppercased() }.joined()
        out += "\n\n\(op.method) \(op.path)" + (op.summary.map { ": \($0)" } ?? "")
        if !op.parameters.isEmpty {
            out += "\n\nParameters:"
            for p in op.parameters {
                let how = p.location == "path" ? "positional" : p.location == "query" ? "--\(p.name) VALUE" : p.location == "body" ? "--json" : "a \(p.location)"
                out += "\n  \(p.name)  \(p.type ?? "any")\(p.required ? ", required" : ""), \(how)"
            }
        }
        if let body = op.body { out += "\n\nBody (--json, checked before it is sent):" + fields(body) }
        if let response = op.response { out += "\n\nResponse (--validate checks it):" + fields(response) }
        return out
    }

    /// A schema's fields, a line each, two levels deep: name, type, required.
    static func fields(_ schema: Value, indent: String = "  ", depth: Int = 0) -> String {
        guard case .record(let s) = schema else { return "" }
        var out = ""
        let required = Set((s["required"]?.listValue ?? []).compactMap(\.stringValue))
        if case .record(let properties)? = s["properties"] {
            for (i, name) in properties.keys.enumerated() {
                guard case .record(let p) = properties.values[i] else { continue }
                let type = p["type"]?.stringValue ?? (p["type"]?.listValue?.compactMap(\.stringValue).joined(separator: "|")) ?? "any"
                out += "\n\(indent)\(name)  \(type)\(required.contains(name) ? ", required" : "")"
                if depth < 1 { out += fields(properties.values[i], indent: indent + "  ", depth: depth + 1) }
            }
        } else if depth == 0, let type = s["type"]?.stringValue {
            out += "\n\(indent)\(type)"
        }
        return out
    }

    /// `:help syntax`.
    public static let syntax = """
        pipeline                  run it, wait, print its value or its error
        pipeline &                run it in the background as job %N
        let name = pipeline       bind the PROMISE to $name without waiting
        def name(a, b) = pipeline define a stage, called as `name x y`
        a | b | c                 each | is a then: b runs on a's value
        'raw'  "interp {} {path} $var ${var.path}"  42  2.5s  true  null
        [list, of, pipelines]  {key: pipeline, "k 2": $x}  (sub | pipeline)  %1  --flag value
        # comment    ; or newline separates statements; a trailing | continues the line
        """

    /// `:help keys`.
    public static let keys = """
        Enter        run the statement (an unfinished one continues on a …> line)
        Tab          complete stages, flags, $variables, %jobs, :commands, file names
        Up/Down      history (kept in $VOW_HISTORY, else $HOME/.vow_history)
        Ctrl-R       search the history
        Ctrl-C       cancel the running statement, or abandon the line being edited
        Ctrl-D       exit (asks once when jobs are pending)
        Ctrl-A/E     start/end of line;  Ctrl-W delete a word;  Ctrl-U delete the line
        """
}

extension Help {
    /// The stage reference as Markdown: docs/stages.md is this text, and a test keeps it so.
    public static func markdownReference(registry: StageRegistry) -> String {
        var out = """
            # Stage reference

            Every built-in stage, by group. This page is generated from the stages themselves
            (`VOW_UPDATE_DOCS=1 swift test --filter DocsTests` rewrites it) and every example on it
            runs as a test. In the REPL, `:help NAME` shows the same text.

            """
        for g in StageGroup.allCases {
            let stages = registry.stages.filter { $0.group == g }
            if stages.isEmpty { continue }
            out += "\n## \(g.rawValue.prefix(1).uppercased() + g.rawValue.dropFirst())\n"
            for s in stages {
                out += "\n### `\(s.name)`\n\n    \(s.synopsis)\n\n\(s.summary)\n"
                if !s.help.isEmpty { out += "\n\(s.help)\n" }
                if !s.aliases.isEmpty { out += "\nAlso spelled: \(s.aliases.map { "`\($0)`" }.joined(separator: ", ")).\n" }
                out += "\nIn JavaScript ([the twin](javascript-twin.md)): \(JavaScriptTwin.reference(for: s)).\n"
                if !s.flags.isEmpty {
                    out += "\n| flag | meaning |\n| --- | --- |\n"
                    for f in s.flags {
                        let name = "--\(f.name)\(f.value.map { " " + $0 } ?? "")"
                        out += "| `\(name)`\(f.repeatable ? " (repeatable)" : "") | \(f.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
                    }
                }
                if !s.examples.isEmpty {
                    out += "\nExamples:\n"
                    for ex in s.examples {
                        out += "\n    \(ex.source.replacingOccurrences(of: "\n", with: "\n    "))\n"
                        let shown = ex.output.isEmpty ? "(nothing)" : ex.output
                        out += "    ⇒ \(ex.fails ? "(fails) " : "")\(shown.replacingOccurrences(of: "\n", with: "\n      "))\n"
                    }
                }
            }
        }
        return out
    }
}
