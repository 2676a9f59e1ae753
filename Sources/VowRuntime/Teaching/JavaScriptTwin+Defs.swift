import VowSyntax
import VowValue

/// The twins of `def` and `async def` stages: their functions, an async function's body with its
/// try/catch, and the session's defs written before a pipeline that calls them.
extension JavaScriptTwin {
    /// The statements that define `defs` (a session's `def` stages), each written from the
    /// source it was given in; afterwards this twin calls them.
    mutating func defining(_ given: [String: UserStage]) -> [String] {
        defs.merge(given) { _, new in new }
        return given.keys.sorted().map { name in
            let user = given[name]!
            var t = JavaScriptTwin(registry: registry, source: user.source)
            t.defs = defs
            t.lets = lets
            return t.statement(Statement(kind: .def(name: name, params: user.params, body: user.body, isAsync: user.isAsync), span: user.body.span))
        }
    }

    /// The statements of an async function's body: each stage given `v` and its value put back
    /// in `v`, `await` where the stage is awaited, the last one returned. A `catch` step is a
    /// try/catch around the steps before it (back to the step before), its handler given the
    /// error's record; a `finally` step is a try/finally, its handler given the value or the
    /// error's record.
    func asyncBody(_ name: String, _ body: Pipeline) -> [String] {
        let steps = body.awaitSteps
        var lines: [String] = []
        // Where the statements of the current try block begin.
        var blockStart = 0
        /// A handler's statement: its code on `input`, put in `v` (returned when it is last).
        func handlerLine(_ node: StageNode, input: String, last: Bool, keep: Bool) -> String {
            guard let pipe = node.handlerPipeline else { return keep ? "v = null;" : "" }
            let plans = plan(pipe)
            let code: TwinCode = plans.count == 1 ? self.body(plans[0], input: input, depth: 1) : TwinCode(pipeline(pipe, input: input, depth: 1), isPromise: true)
            if last { return "return \(code.code);" }
            if code.isPromise { return "v = vow.notAwaited(\(jsString(name)), \(jsString(source.slice(node.span))));" }
            return keep ? "v = \(code.code);" : "\(code.code);"
        }
        for (i, step) in steps.enumerated() {
            let last = i == steps.count - 1
            let role = step.stage.name.flatMap { registry.stage(named: $0) }?.onRejection
            if role == .recovers || role == .runsThenPassesOn {
                let block = lines[blockStart...].map { "  " + $0 }
                lines.removeSubrange(blockStart...)
                lines.append("try {")
                lines += block
                if role == .recovers {
                    lines.append("} catch (e) {")
                    lines.append("  if (vow.rec(e).kind === \"exit\") throw e;")
                    lines.append("  " + handlerLine(step.stage, input: "vow.rec(e)", last: last, keep: true))
                    lines.append("}")
                    if last { lines.append("return v;") }
                } else {
                    lines.append("} catch (e) {")
                    lines.append("  if (vow.rec(e).kind !== \"exit\") " + handlerLine(step.stage, input: "vow.rec(e)", last: false, keep: false))
                    lines.append("  throw e;")
                    lines.append("}")
                    lines.append(handlerLine(step.stage, input: "v", last: false, keep: false))
                    if last { lines.append("return v;") }
                }
                blockStart = lines.count
                continue
            }
            let plan = plan(Pipeline(one: step.stage))[0]
            let code = self.body(plan, input: "v", depth: 1)
            if step.awaits { lines.append("v = await \(code.code);" + (last ? " return v;" : "")); continue }
            if last { lines.append("return \(code.code);"); continue }
            if code.isPromise { lines.append("v = vow.notAwaited(\(jsString(name)), \(jsString(source.slice(step.stage.span))));"); continue }
            lines.append("v = \(code.code);")
        }
        return lines
    }

    /// The JavaScript name of the function of the `def` stage `name`.
    func defName(_ name: String) -> String { "stage_" + name.replacingOccurrences(of: "-", with: "_") }
}
