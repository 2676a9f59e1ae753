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
    /// The statement ends with a stage that printed its value already (`print`): its value is
    /// not printed again.
    public var printsItsValue = false
    /// What a program prints of the statement's value (the REPL shows every value).
    public var inPrograms = ProgramPrinting.value

    /// The error as the shell reports it: its origin and the stages it skipped filled in.
    public func reported(_ error: any Error) -> VowError {
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
public struct StatementStarter: Sendable {
    /// The session statements run in.
    public let session: Session

    /// Makes an interpreter for `session`.
    public init(session: Session) { self.session = session }

    /// Starts one statement on the session executor and returns at once.
    public func start(_ statement: Statement, in source: SourceText) -> StartedStatement {
        session.onExecutor(startsStatements: true) { self.startOnExecutor(statement, in: source) }
    }

    /// Starts several statements in one executor turn, as a JavaScript program starts every
    /// top-level call before any handler runs. `onStart` sees each as it starts (to announce jobs).
    public func start(
        _ statements: [Statement], in source: SourceText, onStart: @escaping @Sendable (StartedStatement) -> Void = { _ in }
    ) -> [StartedStatement] {
        session.onExecutor(startsStatements: true) {
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
            // A foreground statement's value only goes to the printer; a job's is kept (`%N`).
            let (promise, run) = ev.pipeline(
                p, plans: session.checkedPlans.withLock { $0?.take(source, at: p.span.start) }, printed: !background, input: .null, scope: scope,
                site: Site(source: source, statement: p.span, context: [], run: session.nextStatementRun()))
            if background {
                let id = session.jobs.add(statement: source.slice(p.span), promise: promise)
                return .job(id, promise, StatementRun(run: run))
            }
            return .pipeline(promise, StatementRun(run: run, printsItsValue: session.registry.printsItsValue(p), inPrograms: session.registry.inPrograms(p)))
        case .letBinding(let name, _, let value):
            let (promise, run) = ev.pipeline(value, plans: session.checkedPlans.withLock { $0?.take(source, at: value.span.start) }, input: .null, scope: scope, site: Site(source: source, statement: value.span, context: ["let \(name)"], run: session.nextStatementRun()))
            // `let y = $x` (or `%N`) names the promise bound to x itself, as `const y = x` does
            // in JavaScript: a transformed promise would settle in x's reaction, so y's handlers would
            // run ahead of x's handlers attached before y was bound.
            if session.isBound(promise) {
                session.bind(name, promise)
                return .bound(name)
            }
            // Keep the annotated error in the bound promise so that later users see where it came
            // from; the transformed promise settles in the same instant, so `$name | …` takes JavaScript's turns.
            let bound = promise.transformedAtOnce { (r: Result<Value, any Error>) -> Result<Value, any Error> in
                if case .failure(let e) = r { return .failure(StatementRun(run: run).reported(e)) }
                return r
            }
            // Several statements may chain on it: cancelling one of them must not cancel it.
            bound.holdAgainstCancellation()
            session.bind(name, bound)
            session.track(let: name, bound, source: source, span: statement.span)
            return .bound(name)
        case .def(let name, let params, let body, let isAsync):
            session.defs[name] = UserStage(name: name, params: params, body: body, source: source, isAsync: isAsync)
            return .defined(name)
        case .meta(let name, let argument, _):
            return .meta(name: name, argument: argument)
        }
    }

    /// Checks a program before anything runs: every stage name and flag must be known (built in,
    /// defined by `def` in the program or the session, or a `vow-NAME` executable on PATH).
    /// Returns the problems as syntax errors with their spans (`Planner.problems(in:)`).
    /// The plans it makes are kept for the statements to take when they start (`CheckedPlans`).
    public func check(_ program: Program) -> [(message: String, span: SourceSpan)] {
        let planner = Planner.checking(program, registry: session.registry, defs: session.onExecutor { self.session.defs })
        var plans: [Int: [StagePlan]] = [:]
        let problems = planner.problems(in: program, plans: &plans)
        let definesStages = program.statements.contains { if case .def = $0.kind { return true } else { return false } }
        let kept = problems.isEmpty && !definesStages ? CheckedPlans(source: program.source, byStart: plans) : nil
        session.checkedPlans.withLock { $0 = kept }
        return problems.map { ($0.message, $0.span) }
    }

    /// What the program may not mean as written (`Planner.warnings(in:)`): said before it runs,
    /// and it runs anyway.
    public func warnings(_ program: Program) -> [(message: String, span: SourceSpan)] {
        let planner = Planner.checking(program, registry: session.registry, defs: session.onExecutor { self.session.defs })
        return planner.warnings(in: program).map { ($0.message, $0.span) }
    }
}
