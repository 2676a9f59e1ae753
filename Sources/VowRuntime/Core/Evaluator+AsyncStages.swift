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
        @Sendable func go(_ from: Int, _ value: Value) {
            var v = value
            var i = from
            while i < steps.count {
                let (stage, awaits) = steps[i]
                let (p, run) = pipeline(Pipeline(stages: [stage], span: stage.span), input: v, scope: scope, site: site)
                if case .failure(let e)? = run.immediate {
                    resolver.reject(run.annotate(e))
                    return
                }
                if awaits {
                    let next = i + 1
                    _ = p.always(name: "await", on: ex) { r -> Resolution<Value> in
                        switch r {
                        case .success(let x): go(next, x)
                        case .failure(let e): resolver.reject(e)
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
                        resolver.reject(Self.notAwaited(user.name, site.source.slice(stage.span)))
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
