import VowPromises
import VowSyntax
import VowValue

extension Evaluator {
    /// Runs the body of an `async def` on `input`, as JavaScript runs an async function: its
    /// stages one after another in this turn, each given the value of the one before, until an
    /// `await`; `await STAGE` runs the stage and resumes the rest one turn after its promise
    /// settles (one turn for a plain value, as `await 1` takes); a rejection there, or a stage
    /// that throws, rejects the result. The result settles with the last stage's value, or adopts
    /// the promise the last stage returns (two turns more, as `return p` does). A stage that
    /// waits anywhere else rejects, naming it: its promise would otherwise be passed on as if it
    /// were a value.
    func asyncBody(_ user: UserStage, input: Value, scope: Scope, site: Site) -> Promise<Value> {
        let ex = session.executor
        let (result, resolver) = Promise<Value>.pending(name: user.name, on: ex)
        let steps = user.body.awaitSteps
        let registry = session.registry
        // A `catch` or `finally` step is JavaScript's try/catch/finally around the steps before
        // it (back to the one before): its handler is the stage its arguments form.
        let roles: [RejectionRole?] = steps.map { step in
            let role = step.stage.name.flatMap { registry.stage(named: $0) }?.onRejection
            return role?.isHandler == true ? role : nil
        }
        /// Runs the handler of step `i` on `input`: its value now, or nil when it failed (the
        /// failure handled) or waited (the result adopting it when it is the last step).
        @Sendable func runHandler(_ i: Int, _ input: Value, context: String) -> Result<Value, any Error>? {
            guard let h = steps[i].stage.handlerPipeline else { return .success(.null) }
            let handlerSite = Site(source: site.source, statement: site.statement, context: site.context + [context], depth: site.depth, run: site.run)
            let (p, run) = pipeline(h, input: input, scope: scope, site: handlerSite)
            switch run.immediate {
            case .success(let v)?: return .success(v)
            case .failure(let e)?: return .failure(run.annotate(e))
            case nil:
                if i == steps.count - 1 {
                    resolver.adopt(p)
                } else {
                    p.abandon(reason: "cancelled: not awaited")
                    resolver.reject(Self.notAwaited(user.name, site.source.slice(steps[i].stage.span)))
                }
                return nil
            }
        }
        /// A step before `after` failed with `error`: the next catch takes it, a finally runs
        /// and passes it on, and with neither the result rejects.
        @Sendable func fail(_ error: any Error, after i: Int) {
            guard let j = roles.indices.dropFirst(i + 1).first(where: { roles[$0] != nil }) else {
                resolver.reject(error)
                return
            }
            let e = toVowError(error)
            if e.kind == .exit || roles[j] == .runsThenPassesOn {
                // `exit` passes every handler; a finally's handler runs, then the error goes on.
                if e.kind != .exit, let r = runHandler(j, .record(e.record), context: "in a finally handler") {
                    if case .failure(let other) = r { return fail(other, after: j) }
                } else if e.kind != .exit {
                    return
                }
                return fail(error, after: j)
            }
            switch runHandler(j, .record(e.record), context: "in a catch handler") {
            case .success(let v)?: go(j + 1, v)
            case .failure(let other)?: fail(other, after: j)
            case nil: break
            }
        }
        @Sendable func go(_ from: Int, _ value: Value) {
            var v = value
            var i = from
            while i < steps.count {
                let (stage, awaits) = steps[i]
                if let role = roles[i] {
                    // Reached with a value: a catch passes it on, a finally runs its handler first.
                    if role == .runsThenPassesOn {
                        switch runHandler(i, v, context: "in a finally handler") {
                        case .failure(let e)?: return fail(e, after: i)
                        case nil: return
                        case .success?: break
                        }
                    }
                    i += 1
                    continue
                }
                let (p, run) = pipeline(Pipeline(one: stage), input: v, scope: scope, site: site)
                if case .failure(let e)? = run.immediate {
                    return fail(run.annotate(e), after: i)
                }
                if awaits {
                    let next = i + 1
                    let at = i
                    _ = p.always(name: "await", on: ex) { r -> Resolution<Value> in
                        switch r {
                        case .success(let x): go(next, x)
                        case .failure(let e): fail(run.annotate(e), after: at)
                        }
                        return .value(.null)
                    }
                    return
                }
                guard case .success(let x)? = run.immediate else {
                    if i == steps.count - 1 {
                        resolver.adopt(p)
                    } else {
                        p.abandon(reason: "cancelled: not awaited")
                        fail(Self.notAwaited(user.name, site.source.slice(stage.span)), after: i)
                    }
                    return
                }
                v = x
                i += 1
            }
            resolver.fulfill(v)
        }
        go(0, input)
        return result
    }

    /// The rejection of an `async def` stage that waits where nothing awaits it.
    static func notAwaited(_ def: String, _ stage: String) -> VowError {
        VowError(.type, "in async def \(def), '\(stage)' waits: write 'await \(stage)' to wait for it, or make it the last stage to return its promise")
    }
}
