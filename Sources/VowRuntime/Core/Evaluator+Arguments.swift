import Foundation
import VowPromises
import VowSyntax
import VowValue

extension Evaluator {
    /// Evaluates an argument that must be a value now (a duration, a count, a word for a
    /// process): a pipeline argument is cancelled at once and the stage rejects with `problem`.
    func plainArgument(_ a: Argument, input: Value, scope: Scope, site: Site, problem: @autoclosure () -> String) throws -> Value {
        // A variable bound to a promise that has fulfilled is its value (`let n = arg 1 N`, then
        // `each … --limit $n`); one still pending is not a plain value yet.
        if case .variable(let name, let path) = a.kind, name != "_", case .promise(let p)? = scope.lookup(name) {
            if case .success(let v)? = p.result { return try pick(v, path) }
            throw VowError(.type, problem() + " ($\(name) has not settled yet: a value bound by `let` that waits, as a request does, cannot set it)")
        }
        switch try argument(a, input: input, scope: scope, site: site) {
        case .value(let v): return v
        case .promise(let p):
            p.abandon(reason: "cancelled: not a plain value")
            throw VowError(.type, problem())
        }
    }

    /// Evaluates one argument against `input`: a value now, or a promise of one.
    func argument(_ a: Argument, input: Value, scope: Scope, site: Site) throws -> Resolution<Value> {
        switch a.kind {
        case .word(let t), .string(let t):
            return try template(t, input: input, scope: scope)
        case .rawString(let s): return .value(.string(s))
        case .number(let d, let isInteger, let text):
            // A whole number below 2^53 is exact as the double read (no text read again).
            if isInteger, d.magnitude < 9_007_199_254_740_992 { return .value(.int(Int(d))) }
            if isInteger, let i = Int(text) { return .value(.int(i)) }
            return .value(.double(d))
        case .boolean(let b): return .value(.bool(b))
        case .null: return .value(.null)
        case .undefined: return .value(.undefined)
        case .duration(let s, _): return .value(.double(s))
        case .list(let elements):
            var values: [Value] = []
            var promises: [Promise<Value>] = []
            var allValues = true
            for (i, e) in elements.enumerated() {
                let elementSite = site.adding(.element(i + 1, of: "a list"))
                let r = try sync(e, input: input, scope: scope, site: elementSite)
                switch r {
                case .value(let v):
                    values.append(v)
                    promises.append(Promise.resolve(v, on: session.executor))
                case .promise(let p):
                    allValues = false
                    promises.append(p)
                }
            }
            if allValues { return .value(.list(values)) }
            return .promise(Promise.all(promises, on: session.executor, cancelsOthers: !session.javaScriptMode).transformedAtOnce { $0.map(Value.list) })
        case .record(let fields):
            var rec = Record()
            var pairs: [(key: String, value: Promise<Value>)] = []
            var allValues = true
            for f in fields {
                let fieldSite = site.adding(.field(f.key, of: "a record"))
                switch try sync(f.value, input: input, scope: scope, site: fieldSite) {
                case .value(let v):
                    rec[f.key] = v
                    pairs.append((f.key, Promise.resolve(v, on: session.executor)))
                case .promise(let p):
                    allValues = false
                    pairs.append((f.key, p))
                }
            }
            if allValues { return .value(.record(rec)) }
            let keys = pairs.map(\.key)
            return .promise(Promise.all(pairs.map(\.value), on: session.executor, cancelsOthers: !session.javaScriptMode).transformedAtOnce { r in
                r.map { values in Value.record(Record(zip(keys, values).map { ($0, $1) })) }
            })
        case .variable(let name, let path):
            if name == "_" { return .value(try pick(input, path)) }
            guard let b = scope.lookup(name) else {
                throw VowError(.type, "unknown variable $\(name)\(Self.unknownVariableHint(name, among: Array(session.globals.keys)))")
            }
            switch b {
            case .value(let v): return .value(try pick(v, path))
            case .promise(let p):
                // `let` holds its promise against cancellation, so chaining on it directly is safe.
                guard let path else { return .promise(p) }
                return .promise(p.then(on: session.executor) { v in try self.pick(v, path) })
            }
        case .job(let n):
            guard let job = session.jobs.job(n) else { throw VowError(.type, "no job %\(n)") }
            return .promise(job.promise)
        case .group(let p):
            // A group is a pipeline, and a pipeline is a promise, even one that finishes at once:
            // `| (resolve 1)` adopts it, as `.then(() => Promise.resolve(1))` does.
            let (promise, run) = pipeline(p, input: input, scope: scope, site: site)
            return .promise(Self.annotating(promise, run))
        case .flag(let f):
            throw VowError(.syntax, "unexpected flag --\(f) here")
        }
    }

    /// An expression's text with the vow variables it names bound (`ExpressionVariables`): at
    /// once, or, when one is a promise still pending, once it has settled.
    func expression(_ text: String, scope: Scope) throws -> Resolution<Value> {
        // Most expressions name no variable: they are their text.
        guard ExpressionVariables.mayName(text) else { return .value(.string(text)) }
        var known: [(name: String, value: Value)] = []
        var waits: [(name: String, promise: Promise<Value>)] = []
        for name in ExpressionVariables.names(in: text) {
            switch scope.lookup(name) {
            case .value(let v)?: known.append((name, v))
            case .promise(let p)?:
                if case .success(let v)? = p.result { known.append((name, v)) } else { waits.append((name, p)) }
            case nil: break
            }
        }
        if waits.isEmpty { return .value(.string(ExpressionVariables.bound(text, known))) }
        let names = waits.map(\.name)
        let settled = known
        return .promise(Promise.all(waits.map(\.promise), on: session.executor, cancelsOthers: false).transformedAtOnce { r in
            r.map { values in .string(ExpressionVariables.bound(text, settled + zip(names, values).map { ($0, $1) })) }
        })
    }

    /// A sub-pipeline run on `input`: a value when it finished at once (one plain stage), else its promise.
    func sync(_ p: Pipeline, input: Value, scope: Scope, site: Site) throws -> Resolution<Value> {
        let (promise, run) = pipeline(p, input: input, scope: scope, site: site)
        if p.stages.count == 1, let now = run.immediate {
            switch now {
            case .success(let v): return .value(v)
            case .failure(let e): throw run.annotate(e)
            }
        }
        return .promise(Self.annotating(promise, run))
    }

    /// `promise`, whose rejection is given its origin within `run` in the same instant (no turn).
    static func annotating(_ promise: Promise<Value>, _ run: PipelineRun) -> Promise<Value> {
        // Already fulfilled: there is nothing to annotate, and a transformed promise would settle in this
        // same instant, so the promise itself serves.
        if case .success? = promise.result { return promise }
        return promise.transformedAtOnce { r in
            if case .failure(let e) = r { return .failure(run.annotate(e)) }
            return r
        }
    }

    /// Interpolates a template: `{}`, `{PATH}`, `$name.PATH`, `${name.PATH}`.
    func template(_ t: Template, input: Value, scope: Scope) throws -> Resolution<Value> {
        if let lit = t.literalText { return .value(.string(lit)) }
        // Variables bound to pending promises make the whole template wait for them.
        var waits: [String: Promise<Value>]? = nil
        for part in t.parts {
            if case .variable(let name, _) = part, name != "_", case .promise(let p)? = scope.lookup(name) {
                if case .success = p.result {} else { waits = (waits ?? [:]).merging([name: p]) { $1 } }
            }
        }
        guard let waits else { return .value(try render(t, input: input, scope: scope, settled: [:])) }
        let names = Array(waits.keys)
        return .promise(Promise.all(names.map { waits[$0]! }, on: session.executor, cancelsOthers: false).transformedAtOnce { r in
            Result { try self.render(t, input: input, scope: scope, settled: Dictionary(uniqueKeysWithValues: zip(names, try r.get()))) }
        })
    }

    /// The text of a template that names no variable (`{}`, `{PATH}` and text): what `template`
    /// gives for it, with no scope to read.
    static func fill(_ t: Template, input: Value) throws -> Value {
        var out = ""
        for part in t.parts {
            switch part {
            case .literal(let s): out += s
            case .input(let path): out += interpolationText(try searched(input, path))
            case .variable: preconditionFailure("a template filled in with no scope names no variable")
            }
        }
        return .string(out)
    }

    /// The text of a template whose variables are all settled (`settled` holds those that were
    /// pending when it was evaluated).
    private func render(_ t: Template, input: Value, scope: Scope, settled: [String: Value]) throws -> Value {
        var out = ""
        // Text of a literal part that a record variable before it took as its fields (`$env.API`).
        var taken = 0
        for (index, part) in t.parts.enumerated() {
            switch part {
            case .literal(let s): out += taken == 0 ? s : String(s.utf8.dropFirst(taken))!
                taken = 0
            case .input(let path): out += Self.interpolationText(try pick(input, path))
            case .variable(let name, let path):
                let v: Value
                if name == "_" {
                    v = input
                } else if let s = settled[name] {
                    v = s
                } else {
                    switch scope.lookup(name) {
                    case .value(let x)?: v = x
                    case .promise(let p)?: v = (try? p.result?.get()) ?? .null
                    case nil: throw VowError(.type, "unknown variable $\(name)\(Self.unknownVariableHint(name, among: Array(session.globals.keys)))")
                    }
                }
                var value = try pick(v, path)
                // `$env.API/users` in a word: a record's fields named after it with dots, as
                // `${env.API}` names them; any other value is text, and the dot stays text.
                if path == nil, index + 1 < t.parts.count, case .literal(let rest) = t.parts[index + 1] {
                    (value, taken) = Self.dottedFields(of: value, in: rest)
                }
                out += Self.interpolationText(value)
            }
        }
        return .string(out)
    }

    /// The field of record `v` that `rest` names with `.NAME` at its start, again while the value
    /// is a record (`.a.b`), and how many bytes of `rest` that took; `v` and 0 when it is not a
    /// record or `rest` names no field.
    static func dottedFields(of v: Value, in rest: String) -> (Value, Int) {
        var value = v
        var at = 0
        let bytes = Array(rest.utf8)
        while case .record(let r) = value, at < bytes.count, bytes[at] == UInt8(ascii: "."), at + 1 < bytes.count,
            bytes[at + 1] == UInt8(ascii: "_") || (bytes[at + 1] | 0x20 >= UInt8(ascii: "a") && bytes[at + 1] | 0x20 <= UInt8(ascii: "z"))
        {
            var end = at + 1
            while end < bytes.count, bytes[end] == UInt8(ascii: "_") || (bytes[end] | 0x20 >= UInt8(ascii: "a") && bytes[end] | 0x20 <= UInt8(ascii: "z")) || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9")) { end += 1 }
            value = r[String(decoding: bytes[(at + 1)..<end], as: UTF8.self)] ?? .null
            at = end
        }
        return (value, at)
    }

    /// What an unknown `$name` may have meant: an environment variable (`$HOME` is
    /// `$env.HOME`, as a shell user writes it), else the closest variable's name.
    static func unknownVariableHint(_ name: String, among known: [String]) -> String {
        if ProcessInfo.processInfo.environment[name] != nil || name.allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }) {
            return " (the environment is $env: $env.\(name), or \"${env.\(name)}\" inside text)"
        }
        return closest(to: name, among: known).map { " (did you mean $\($0)?)" } ?? ""
    }

    /// How a value reads inside a string: text raw, everything else as compact JSON.
    static func interpolationText(_ v: Value) -> String {
        switch v {
        case .string(let s): return s
        case .int(let i): return decimalText(i)  // what the JSON writer writes, without its buffer
        default: return JSONWriter.compact(v)
        }
    }

    /// `i` in decimal, as `String(i)` writes it, without its generic path (a number filled in
    /// a million times, `each format "{}"`).
    static func decimalText(_ i: Int) -> String {
        if i == Int.min { return String(i) }
        var magnitude = UInt(i.magnitude)
        // 19 digits and a sign at most, written from the end; the text is made at its length,
        // so that one of 15 bytes or fewer is held inline, with no allocation.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { scratch in
            var at = 24
            repeat {
                at -= 1
                scratch[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if i < 0 {
                at -= 1
                scratch[at] = UInt8(ascii: "-")
            }
            let count = 24 - at
            return String(unsafeUninitializedCapacity: count) { buffer in
                for k in 0..<count { buffer[k] = scratch[at + k] }
                return count
            }
        }
    }

    /// `value.PATH` by JMESPath; a response is searched through its parsed body.
    func pick(_ v: Value, _ path: String?) throws -> Value { try Self.searched(v, path) }

    /// `value.PATH` by JMESPath (`pick(_:_:)`).
    static func searched(_ v: Value, _ path: String?) throws -> Value {
        guard let path, !path.isEmpty else { return v }
        return try Pick.search(path, in: v)
    }
}
