import VowPromises
import VowSyntax
import VowValue

/// The groups stages are listed under in `:help` and docs/stages.md.
public enum StageGroup: String, Sendable, CaseIterable {
    /// echo, print, resolve, reject, delay, sim…
    case values
    /// fetch and the HTTP verbs.
    case http
    /// json, text, pick, format…
    case data
    /// read, write, stdin, env, run.
    case files = "files, processes"
    /// then, catch, finally, timeout, retry, each, all…
    case control
    /// jobs, await, cancel.
    case jobs
}

/// What a program (a script, `-c`) prints of a statement that ends with a stage; the REPL
/// shows every value.
public enum ProgramPrinting: Sendable {
    /// The value, null included: the stage answers a question (`pick missing` is null).
    case value
    /// The value unless it is null: null from an effect (`delay 1s`, `tap …`) is nothing to show.
    case unlessNull
    /// Nothing: the value went where it was sent (`write` to its file, as a shell's `>`).
    case nothing
}

/// A documented example: its source and the exact output it prints. The test suite runs every
/// stage's examples, so help text cannot go stale.
public struct StageExample: Sendable {
    /// A vow program (one or more statements).
    public let source: String
    /// What it prints on stdout (plain, no colour); for a failing example, the first line it
    /// prints on stderr (`error[kind]: …`).
    public let output: String
    /// True when the example is expected to fail.
    public let fails: Bool
    /// Needs the network fixture (skipped by the offline example test).
    public let needsServer: Bool

    /// Declares an example.
    public init(_ source: String, _ output: String, fails: Bool = false, needsServer: Bool = false) {
        self.source = source
        self.output = output
        self.fails = fails
        self.needsServer = needsServer
    }
}

/// What a stage does with a rejection that reaches it from upstream.
public enum RejectionRole: Sendable {
    /// It does not run: the rejection skips it (most stages).
    case skipped
    /// It runs its handler on the error, and the chain goes on with what that gives (`catch`).
    case recovers
    /// It runs its handler, then passes the rejection on (`finally`).
    case runsThenPassesOn
    /// It runs everything upstream again while attempts remain (`retry`).
    case reruns
    /// It passes the rejection on, having waited for it (`timeout`).
    case passesOn

    /// True for a handler that runs on a rejection (`catch`, `finally`): no look-ahead fuses
    /// into it.
    public var isHandler: Bool { self == .recovers || self == .runsThenPassesOn }
    /// False when the rejection skips the stage: it is not listed among the skipped stages.
    public var seesRejection: Bool { self != .skipped }
}

/// How a stage takes its arguments.
public enum ArgumentStyle: Sendable {
    /// Arguments are values, evaluated against the stage's input before it runs.
    case values
    /// The arguments form another stage to run (`then STAGE…`, `catch HANDLER…`, `each STAGE…`).
    case stage
    /// The stage reads its arguments itself (combinators that need promises, not values).
    case raw
    /// Every argument, flags included, is passed on as it is written (external `vow-NAME` stages).
    case passthrough

    /// True for a stage that reads its own arguments (`.raw`, `.stage`): it waits for the `let`
    /// variables they name before it runs (`StageCall.pendingVariables`), where values wait by
    /// themselves.
    var waitsForVariables: Bool { self == .raw || self == .stage }
}

/// One stage of vow: its name, flags, help, capabilities, twin, explanation and behaviour, in
/// one type.
///
/// Add a stage by writing one type that conforms and adding it to `StageRegistry.builtins`: the
/// planning pass (`Planner`), the evaluator, the twin writer, the explainer and completion read
/// what it declares, and never ask for a stage by its name. Most stages conform to `ValueStage`,
/// which handles chaining; control stages implement `apply` to act on the upstream promise
/// itself, and write their twin and their explanation themselves (`TwinWriting`,
/// `StageExplaining`). `StageCapabilityTests` fails for a stage that lacks either.
public protocol StageDefinition: Sendable {
    /// The name typed in a pipeline.
    static var name: String { get }
    /// Other names that reach the same stage (`fail` for `reject`).
    static var aliases: [String] { get }
    /// The group it is listed under.
    static var group: StageGroup { get }
    /// The usage line, e.g. `delay DURATION [VALUE]`.
    static var synopsis: String { get }
    /// One sentence.
    static var summary: String { get }
    /// The full help text.
    static var help: String { get }
    /// Its flags.
    static var flags: [FlagSpec] { get }
    /// Examples that the test suite runs.
    static var examples: [StageExample] { get }
    /// How it takes arguments.
    static var argumentStyle: ArgumentStyle { get }
    /// What it is in the JavaScript twin: a handler that finishes at once, one that returns a
    /// promise, or a control stage (docs/javascript-twin.md).
    static var twin: StageTwin { get }
    /// True when the stage, called with these positional arguments, takes a stream as it is
    /// (`take`, `write`, `each`, `print` with no argument); any other stage gets a stream's items
    /// as a list, once it has ended (docs/streams.md). The evaluator and the twin both ask it.
    static func takesStream(_ positional: ArgumentList) -> Bool
    /// True for a stage that runs again what is upstream of it (`retry`, `until`): the
    /// evaluator hands it a way to (`StageCall.rerunUpstream`), the twin makes its upstream a
    /// function.
    static var rerunsUpstream: Bool { get }
    /// What the stage does with a rejection that reaches it: most are skipped; `catch`
    /// recovers, `finally` runs and passes it on, `retry` runs its upstream again, `timeout`
    /// passes it on.
    static var onRejection: RejectionRole { get }
    /// False for a stage that never starts a rejection of its own (`resolve`, `echo`, `print`),
    /// or only through its handler (`then`, `tap`, `catch`, `finally`): what `:explain` says.
    static var rejectsOnItsOwn: Bool { get }
    /// For a stage that waits: what its promise does and when, as a phrase after the promise's
    /// name (`fulfils when the timer fires`), for `:explain`. Nil for the others.
    static var settlement: String? { get }
    /// True for a stage that runs the handler it is given (`then X`, `catch X`, `tap X`,
    /// `finally X`) rather than doing work of its own: `:explain` reads X.
    static var innerIsHandler: Bool { get }
    /// True for a stage that always rejects (`reject`).
    static var alwaysRejects: Bool { get }
    /// How many of the stage's first positional arguments it reads as JMESPath expressions
    /// (`pick`, `where`, `assert`: 1): written as a word or a string, such an argument is its
    /// text as written (`pick "{id: id}"`), never a template filled in from the input.
    static var expressionArguments: Int { get }
    /// The flags whose value is a JMESPath expression (`watch --until`, `paginate --items`):
    /// the planning pass parses a literal one before anything runs, as it does the
    /// `expressionArguments`.
    static var expressionFlags: Set<String> { get }
    /// True for a stage whose positional words are text as written (`run`'s argv): `007`,
    /// `1.50`, `10ms`, `true` and `null` reach it as those characters, not as values, and a
    /// flag it does not declare, after its first word, is a word too (`run git log --oneline`).
    static var takesWordsAsWritten: Bool { get }
    /// True for a stage that takes a flag it does not declare, with a value, as a value of its
    /// own (`op`'s query parameters, `--_limit 10`): evaluated as a declared flag is, and found
    /// under its name in the arguments' flags.
    static var takesUndeclaredFlags: Bool { get }
    /// True for a stage whose first word is a flag it names rather than one of its own
    /// (`flag --yes`).
    static var namesAFlag: Bool { get }
    /// True for a stage that combines promises into one (`all`, `race`, `any`, `settle`): the
    /// teaching views draw its inputs as inputs, not as a chain.
    static var combinesPromises: Bool { get }
    /// True for a stage that only applies the stage its arguments form, on the value (`then X`
    /// is `| X`): the planner plans X in its place, with the same promise and turns.
    static var appliesItsStage: Bool { get }
    /// True for a stage that takes two groups, a handler for each outcome (`then (A) (B)`,
    /// JavaScript's `.then(onFulfilled, onRejected)`): the planner accepts the second group and
    /// the stage recovers from a rejection in that form.
    static var takesRejectionHandler: Bool { get }
    /// The twin's function for this stage, in JavaScript, written beside the stage: a function
    /// expression (`(v, flags) => …`) that the twin's prelude holds as `vow["NAME"]`, where NAME
    /// is the function `twin` names. It may use the prelude's `vow.error(kind, message)`,
    /// `vow.text(v)`, `vow.typeName(v)`. Nil when the prelude file defines the function.
    static var twinFunction: String? { get }
    /// True for a stage that does less when it knows the stage after it, and conforms to
    /// `LooksAhead` to say how (`json`, `read`).
    static var looksAhead: Bool { get }
    /// True for a stage after which a stream is still a stream: the same one (`tap`, `catch`,
    /// `finally`, `timeout`, `retry` pass their upstream's value on) or one made from it as it
    /// arrives (`where`, `csv`, `to-csv`).
    static var passesStream: Bool { get }
    /// True for a value stage whose run is a pure function of its input and arguments: it
    /// finishes at once, has no effect, and gives the same value or the same error every time.
    /// A stage that runs a one-stage pipeline on many inputs (`each`) runs such a stage
    /// directly (`PureStage`).
    static var isPure: Bool { get }
    /// True for a stage that writes its value out itself (`print`): a statement that ends with
    /// it prints nothing more.
    static var printsItsValue: Bool { get }
    /// What a program prints of a statement that ends with the stage: by default the value
    /// for the data stages, the value unless it is null for the others.
    static var inPrograms: ProgramPrinting { get }
    /// The most positional arguments the stage takes, or nil for any number: more is refused
    /// before anything runs, never silently dropped (`where age > 30` is three words).
    static var positionalLimit: Int? { get }

    /// Makes the stage.
    init()

    /// Builds this stage's promise from the call (the upstream promise, arguments, session).
    func apply(_ call: StageCall) throws -> Promise<Value>

    /// Runs the stage on one value from its upstream: what the handler `StageCall.chain(running:)`
    /// attaches calls, through the definition the call's plan holds, so that the handler keeps
    /// the call alone. `ValueStage` implements it (`ValueStage.handle`); the call of no other
    /// stage reaches it, and the default refuses.
    static func handleValue(_ input: Value, _ call: StageCall) throws -> Resolution<Value>

    /// The stage made as a value stage, or nil when it is none (`ValueStage` implements it): a
    /// look-up of the conformance (`as? any ValueStage`) cost about 570 instructions each time a
    /// stage's direct form was made (`PureStage`: every `then (…)` hop).
    static func valueStage() -> (any ValueStage)?
}

extension StageDefinition {
    /// No aliases by default.
    public static var aliases: [String] { [] }
    /// No flags by default.
    public static var flags: [FlagSpec] { [] }
    /// Arguments are values by default.
    public static var argumentStyle: ArgumentStyle { .values }
    /// A stream is collected into a list first, by default.
    public static func takesStream(_ positional: ArgumentList) -> Bool { false }
    /// Does not run its upstream again, by default.
    public static var rerunsUpstream: Bool { false }
    /// Skipped by a rejection, by default.
    public static var onRejection: RejectionRole { .skipped }
    /// May reject on its own, by default.
    public static var rejectsOnItsOwn: Bool { true }
    /// No settlement sentence by default.
    public static var settlement: String? { nil }
    /// Does work of its own, by default.
    public static var innerIsHandler: Bool { false }
    /// Does not always reject, by default.
    public static var alwaysRejects: Bool { false }
    /// Reads no argument as an expression, by default.
    public static var expressionArguments: Int { 0 }
    /// No flag holds an expression, by default.
    public static var expressionFlags: Set<String> { [] }
    /// Words are values (a number, a duration…), by default.
    public static var takesWordsAsWritten: Bool { false }
    /// A flag not declared is a mistake, by default.
    public static var takesUndeclaredFlags: Bool { false }
    /// Its flags are its own, by default.
    public static var namesAFlag: Bool { false }
    /// Combines no promises, by default.
    public static var combinesPromises: Bool { false }
    /// Does more than apply the stage it is given, by default.
    public static var appliesItsStage: Bool { false }
    /// Takes one handler, by default.
    public static var takesRejectionHandler: Bool { false }
    /// Its twin's function is in the prelude file, by default.
    public static var twinFunction: String? { nil }
    /// Looks at no other stage, by default.
    public static var looksAhead: Bool { false }
    /// Makes a value of its own, by default.
    public static var passesStream: Bool { false }
    /// Not pure by default.
    public static var isPure: Bool { false }
    /// Leaves its value for the statement to print, by default.
    public static var printsItsValue: Bool { false }
    /// The data stages answer with their value, null included; the others print null as nothing.
    public static var inPrograms: ProgramPrinting { group == .data ? .value : .unlessNull }
    /// Takes any number of positional arguments, by default.
    public static var positionalLimit: Int? { nil }
    /// Not a value stage: nothing calls it (`ValueStage` has its own), and it refuses.
    public static func handleValue(_ input: Value, _ call: StageCall) throws -> Resolution<Value> {
        throw call.error(.type, "does not run on its upstream's value this way")
    }
    /// Not a value stage, by default.
    public static func valueStage() -> (any ValueStage)? { nil }
}

/// A stage that maps its input to a value or a promise: `upstream.then(run)`.
///
/// Its arguments are evaluated against the input first (interpolating `{}` and `$vars`); when
/// they are all plain values the stage runs in the same turn, so one `|` costs one turn, as one
/// `.then` does in JavaScript.
public protocol ValueStage: StageDefinition {
    /// Runs the stage on one input. Throw `VowError` to reject; return `.promise` to wait.
    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value>

    /// The stage's work with `args`, arguments that are the same for every input, made once
    /// (`PreparedStage`), or nil (the default) when it has no such form: its direct form then
    /// calls `run` for each input.
    func prepared(_ args: StageArguments) -> (any PreparedStage)?
}

extension ValueStage {
    /// No prepared form: `run` is called for each input.
    public func prepared(_ args: StageArguments) -> (any PreparedStage)? { nil }

    /// Chains `run` on the upstream promise (or runs at once on the pipeline's input).
    public func apply(_ call: StageCall) throws -> Promise<Value> {
        call.chain(running: self)
    }

    /// `handle` on a stage made for the call: a value stage is a type with no fields.
    public static func handleValue(_ input: Value, _ call: StageCall) throws -> Resolution<Value> {
        try Self().handle(input, call)
    }

    /// The stage, made: it is a value stage.
    public static func valueStage() -> (any ValueStage)? { Self() }

    /// The stage on one input: `run` once the arguments are evaluated against it, or, on a
    /// stream the stage does not take as one, once the stream has ended, on its items as a list.
    func handle(_ input: Value, _ call: StageCall) throws -> Resolution<Value> {
        if let stream = input.stream, !Self.takesStream(call.positional) {
            // A stream that ends fulfils what waits on it with its items as a list.
            let ex = call.session.executor
            return .promise(stream.collect(on: ex).then(on: ex, resolving: { list in try call.namingErrors { try self.runEvaluated(list, call) } }))
        }
        return try self.runEvaluated(input, call)
    }

    /// Evaluates the arguments against `input`, then runs.
    func runEvaluated(_ input: Value, _ call: StageCall) throws -> Resolution<Value> {
        var later: Promise<StageArguments>?
        let now = try call.arguments(for: input, later: &later)
        if let later {
            return .promise(later.then(on: call.session.executor, resolving: { a in try call.namingErrors { try self.run(input, a, call) } }))
        }
        return try self.run(input, now, call)
    }
}
