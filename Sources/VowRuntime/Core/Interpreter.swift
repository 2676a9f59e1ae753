import Foundation
import VowPromises
import VowSyntax
import VowValue

/// A statement that has been started.
public enum StartedStatement: Sendable {
    /// A pipeline to wait for and print.
    case pipeline(Promise<Value>, StatementRun)
    /// `let name = …`: the promise is bound, nothing to wait for.
    case bound(String)
    /// `def name(…) = …`.
    case defined(String)
    /// `pipeline &`: job `id` was started.
    case job(Int, Promise<Value>, StatementRun)
    /// `:name argument`: for the shell to handle.
    case meta(name: String, argument: String)
}

/// What the shell needs to report a statement's rejection: which stage, what was skipped.
public struct StatementRun: Sendable {
    let run: PipelineRun

    /// The error with its origin and the stages it skipped filled in.
    public func explain(_ error: any Error) -> VowError {
        var e = run.annotate(error)
        if e.skipped.isEmpty { e.skipped = run.skipped(after: e) }
        return e
    }

    /// The stage promises of the statement, in order, with their stage text (for `:timeline`).
    public var stages: [(text: String, promise: Promise<Value>)] {
        run.entries.map { (run.site.source.slice($0.span), $0.promise) }
    }
}

/// Runs statements in a session: the bridge from syntax trees to promises.
public struct Interpreter: Sendable {
    /// The session statements run in.
    public let session: Session

    /// Makes an interpreter for `session`.
    public init(session: Session) { self.session = session }

    /// Starts one statement on the session executor and returns at once.
    public func start(_ statement: Statement, in source: SourceText) -> StartedStatement {
        session.onExecutor { self.startOnExecutor(statement, in: source) }
    }

    /// Starts several statements in one executor turn, as a JavaScript program starts every
    /// top-level call before any handler runs. `onStart` sees each as it starts (to announce jobs).
    public func start(
        _ statements: [Statement], in source: SourceText, onStart: @escaping @Sendable (StartedStatement) -> Void = { _ in }
    ) -> [StartedStatement] {
        session.onExecutor {
            statements.map { st in
                let s = self.startOnExecutor(st, in: source)
                onStart(s)
                return s
            }
        }
    }

    /// Starts one statement; call it on the session executor.
    public func startOnExecutor(_ statement: Statement, in source: SourceText) -> StartedStatement {
        let ev = Evaluator(session: session)
        let scope = Scope(session: session)
        switch statement.kind {
        case .pipeline(let p, let background):
            let (promise, run) = ev.pipeline(p, input: .null, scope: scope, site: Site(source: source, statement: p.span, context: []))
            if background {
                let id = session.jobs.add(statement: source.slice(p.span), promise: promise)
                return .job(id, promise, StatementRun(run: run))
            }
            return .pipeline(promise, StatementRun(run: run))
        case .letBinding(let name, _, let value):
            let (promise, run) = ev.pipeline(value, input: .null, scope: scope, site: Site(source: source, statement: value.span, context: ["let \(name)"]))
            // `let y = $x` (or `%N`) names the promise bound to x itself, as `const y = x` does
            // in JavaScript: a relay of it would settle in x's reaction, so y's handlers would
            // run ahead of x's handlers attached before y was bound.
            if session.isBound(promise) {
                session.bind(name, promise)
                return .bound(name)
            }
            // Keep the annotated error in the bound promise so that later users see where it came
            // from; the relay settles in the same instant, so `$name | …` takes JavaScript's turns.
            let bound = promise.relay { (r: Result<Value, any Error>) -> Result<Value, any Error> in
                if case .failure(let e) = r { return .failure(StatementRun(run: run).explain(e)) }
                return r
            }
            // Several statements may chain on it: cancelling one of them must not cancel it.
            bound.holdAgainstCancellation()
            session.bind(name, bound)
            return .bound(name)
        case .def(let name, let params, let body):
            session.defs[name] = UserStage(name: name, params: params, body: body, source: source)
            return .defined(name)
        case .meta(let name, let argument, _):
            return .meta(name: name, argument: argument)
        }
    }

    /// Checks a program before anything runs: every stage name and flag must be known (built in,
    /// defined by `def` in the program or the session, or a `vow-NAME` executable on PATH).
    /// Returns the problems as syntax errors with their spans.
    public func check(_ program: Program) -> [(message: String, span: SourceSpan)] {
        var known = Set(session.onExecutor { self.session.userStageNames })
        for st in program.statements {
            if case .def(let name, _, _) = st.kind { known.insert(name) }
        }
        var problems: [(String, SourceSpan)] = []
        func visit(_ p: Pipeline) {
            for s in p.stages {
                switch s.head {
                case .named(let name, let span):
                    if known.contains(name) {
                    } else if let def = session.registry.stage(named: name) {
                        checkFlags(def, s)
                    } else if ExternalStage.find(name) != nil {
                        // An external stage takes any arguments.
                    } else {
                        let hint = session.registry.suggestion(for: name, extra: Array(known)).map { " (did you mean '\($0)'?)" } ?? ""
                        problems.append(("unknown stage '\(name)'\(hint)", span))
                    }
                case .value(let a): visit(a)
                }
                for a in s.arguments { visit(a) }
            }
        }
        func visit(_ a: Argument) {
            switch a.kind {
            case .list(let ps): ps.forEach(visit)
            case .record(let fields): fields.forEach { visit($0.value) }
            case .group(let p): visit(p)
            default: break
            }
        }
        func checkFlags(_ def: any StageDefinition.Type, _ s: Stage, outer: [String] = []) {
            // Stages whose arguments form another stage check that stage instead.
            if def.argumentStyle == .passthrough { return }
            if def.argumentStyle == .stage {
                let own = Set(def.flags.map(\.name))
                var rest = s.arguments
                rest.removeAll { if case .flag(let f) = $0.kind { return own.contains(f) } else { return false } }
                if let first = rest.first, case .word(let t) = first.kind, let inner = t.literalText,
                    let innerDef = session.registry.stage(named: inner)
                {
                    let innerStage = Stage(head: .named(inner, first.span), arguments: Array(rest.dropFirst()), span: s.span)
                    checkFlags(innerDef, innerStage, outer: outer + def.flags.map(\.name))
                    for a in innerStage.arguments { visit(a) }
                } else if let first = rest.first, case .word(let t) = first.kind, t.literalText != nil {
                    visit(Pipeline(stages: [Stage(head: .named(t.literalText!, first.span), arguments: Array(rest.dropFirst()), span: s.span)], span: s.span))
                }
                return
            }
            for a in s.arguments {
                if case .flag(let f) = a.kind, !def.flags.contains(where: { $0.name == f }) {
                    // A misspelt flag may be meant for the stage around this one (`each … --limt`).
                    let hint = closest(to: f, among: def.flags.map(\.name) + outer).map { " (did you mean --\($0)?)" } ?? ""
                    problems.append(("\(def.name): unknown flag --\(f)\(hint)", a.span))
                }
            }
        }
        for st in program.statements {
            switch st.kind {
            case .pipeline(let p, _): visit(p)
            case .letBinding(_, _, let p): visit(p)
            case .def(_, _, let body): visit(body)
            case .meta: break
            }
        }
        return problems
    }
}
