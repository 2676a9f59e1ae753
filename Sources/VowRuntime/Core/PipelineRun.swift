import VowPromises
import VowSyntax
import VowValue

/// The stages of one pipeline run and their promises: what error provenance is read from.
///
/// Sendable: `entries`, `reruns` and `immediate` are set while the pipeline is built, on the session
/// executor, and only read after. Another thread (the runner's spinner) reads them only through
/// `Runner.running`, a lock, set once the build is done. `site` and `input` never change.
/// The three are `@exclusivity(unchecked)`: no access to one overlaps another (each is a plain
/// read, an append or an assignment), and a run of a list's element (`all [resolve 1, …]`)
/// made four checked accesses, ~300 instructions, of its one stage.
final class PipelineRun: @unchecked Sendable {
    /// A stage of the run: its plan (where its name and how it meets a rejection are read), its
    /// promise, and where it is written (a `then` the planner rewrote: the whole `then`
    /// stage). 24 bytes: its place is its own, not read from its plan, since stages written
    /// byte for byte alike may share one plan (`Planner.plan(_:sharing:)`), which a stretch of
    /// them (`PureStretch`) keeps for each without placing it.
    struct Entry {
        let plan: StagePlan
        let promise: Promise<Value>
        /// Where the stage is written.
        let span: SourceSpan

        /// The entry of the stage written at `span`, whose plan is `plan` (placed there, or shared).
        init(plan: StagePlan, promise: Promise<Value>, span: SourceSpan) {
            self.plan = plan
            self.promise = promise
            self.span = span
        }
        /// A rejection that reaches it is not reported as having skipped it: a handler
        /// (`StageDefinition.handlesRejections`) or a stage that acts on it (`seesRejections`).
        var seesRejections: Bool { plan.onRejection.seesRejection }
        /// The stage's name as an error's origin gives it: a value stage (`[…]`, `{…}`) is its
        /// text, any other stage its name as written.
        func name(in source: SourceText) -> String {
            if case .value(let arg) = plan.kind { return source.slice(arg.span) }
            return plan.nameAsWritten
        }
    }
    let site: Site
    let input: Value
    @exclusivity(unchecked) var entries = FirstInPlaceList<Entry>()
    /// For a stage that re-runs its upstream (`retry`, `until`), by its index: how to run the
    /// stages before it again (`StageCall.rerunUpstream`). Kept here, not in every stage's call,
    /// as few stages have one.
    @exclusivity(unchecked) var reruns: [Int: @Sendable () -> Promise<Value>] = [:]
    /// The outcome of the first stage when it finished at once (a handler that returned a value
    /// or threw, in JavaScript's terms), nil when it returned a promise. A one-stage pipeline
    /// that finished at once is a plain value where it is used as a handler: no adoption, no turn.
    @exclusivity(unchecked) var immediate: Result<Value, any Error>?
    /// The pipeline is a handler's body (the inner stage of `catch X`, `each X`…), whose
    /// value the caller resolves its own promise with: a `thenable` first in it is the thenable
    /// the handler returns, where first in a statement or a group it is `Promise.resolve`d.
    let isHandler: Bool

    init(site: Site, input: Value, isHandler: Bool = false) {
        self.site = site
        self.input = input
        self.isHandler = isHandler
    }

    /// The error as a `VowError`, its origin found when missing: the stage that started the final
    /// streak of rejections before `index`.
    func annotate(_ error: any Error, before index: Int? = nil) -> VowError {
        let e = toVowError(error)
        if e.origin != nil { return e }
        let limit = min(index ?? entries.count, entries.count)
        guard limit > 0 else { return e }
        var j = limit - 1
        while j > 0, let prev = entries[j - 1].promise.result, case .failure(let pe) = prev,
            let cur = entries[j].promise.result, case .failure(let ce) = cur,
            sameRejection(pe, ce)
        {
            j -= 1
        }
        let stageInput: Value? = j == 0 ? (input.isNull ? nil : input) : (try? entries[j - 1].promise.result?.get())
        return annotate(e, at: j, input: stageInput)
    }

    /// `error` given its origin: the stage at `j`, which got `input`.
    func annotate(_ error: any Error, at j: Int, input: Value?) -> VowError {
        var e = toVowError(error)
        var stageInput = input
        // A `pick` after `json` got the part of the document it needed; its input is the document.
        if case .opaque(let picked as PickedAhead)? = stageInput { stageInput = picked.document }
        e.origin = origin(for: j, input: stageInput)
        // The argument at fault, when it is one of this stage's own (not of a stage inside it
        // that surfaced here, nor of a def's body, written elsewhere).
        if let c = e.culprit, c.lowerBound >= entries[j].span.start, c.upperBound <= entries[j].span.end, !c.isEmpty {
            e.origin?.argument = (c.lowerBound - site.statement.start)..<(c.upperBound - site.statement.start)
        }
        e.origin?.context += e.pendingContext
        e.pendingContext = []
        return e
    }

    func origin(for j: Int, input: Value?) -> VowError.Origin {
        let stmt = site.source.slice(site.statement)
        let span = entries[j].span
        let (line, _) = site.source.lineColumn(of: site.statement.start)
        return VowError.Origin(
            stage: entries[j].name(in: site.source), statement: stmt,
            range: (span.start - site.statement.start)..<(span.end - site.statement.start),
            sourceName: site.source.name, line: line, input: input, context: site.context)
    }

    /// The stages after the origin that the rejection skipped (handlers, and the stages that act
    /// on a rejection, ran: they are not listed).
    func skipped(after error: VowError, before limit: Int? = nil) -> [String] {
        guard let origin = error.origin else { return [] }
        let end = min(limit ?? entries.count, entries.count)
        let stmtStart = site.statement.start
        guard let j = entries.firstIndex(where: { $0.span.start - stmtStart == origin.range.lowerBound && origin.context == site.context })
        else {
            // Born deeper (inside a def or a sub-pipeline): find the top-level stage that contains it.
            let at = origin.range.lowerBound + stmtStart
            guard let k = entries.firstIndex(where: { $0.span.start <= at && at < max($0.span.end, $0.span.start + 1) }) else {
                return []
            }
            guard k + 1 < end else { return [] }
            return entries[(k + 1)..<end].filter { !$0.seesRejections }.map { site.source.slice($0.span) }
        }
        guard j + 1 < end else { return [] }
        return entries[(j + 1)..<end].filter { !$0.seesRejections }.map { site.source.slice($0.span) }
    }
}
