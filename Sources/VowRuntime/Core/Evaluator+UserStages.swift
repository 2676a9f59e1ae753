import VowPromises
import VowSyntax
import VowValue

extension Evaluator {
    /// How deep `def` stages may nest (a def whose body calls itself, directly or through
    /// another): past it the stage rejects with kind `recursion` instead of exhausting the stack
    /// or memory; a def nesting itself in one turn stops sooner, when the thread's stack runs low
    /// (`StackRoom`).
    static let maxDefDepth = 1000

    /// Calls a `def` stage: arguments bound to its parameters, its body run on the input.
    func applyUser(
        _ user: UserStage, plan: StagePlan, upstream: Promise<Value>?, input: Value, scope: Scope, site: Site,
        run: PipelineRun, index: Int
    ) -> Promise<Value> {
        let call = StageCall(
            plan: plan, upstream: upstream, scope: scope, run: run, index: index)
        return call.chain { input in
            let resolved = try call.arguments(for: input)
            let start: @Sendable (StageArguments) throws -> Resolution<Value> = { args in
                guard args.count == user.params.count else {
                    throw VowError(.type, "\(user.name) takes \(user.params.count) argument(s) (\(user.params.map { "$" + $0 }.joined(separator: ", "))), got \(args.count)")
                }
                var locals: [String: Binding] = [:]
                for (p, v) in zip(user.params, args.positional) { locals[p] = .value(v) }
                let inner = Scope(session: self.session, locals: locals, parent: nil)
                guard site.depth < Self.maxDefDepth, StackRoom.enough() else {
                    throw VowError(
                        .recursion,
                        "stage \(user.name) (def) is nested \(site.depth) deep, past what vow allows: a def that calls itself (or one that calls it back) never stops",
                        details: ["stage": .string(user.name), "limit": .int(Self.maxDefDepth)])
                }
                // A def calling itself (or back) is named in the context once, not once a level.
                let entry = "in stage \(user.name) (def)"
                let context = site.context.contains(entry) ? site.context : site.context + [entry]
                let innerSite = Site(source: user.source, statement: user.body.span, context: context, depth: site.depth + 1, run: site.run)
                if user.isAsync { return .promise(self.asyncBody(user, input: input, scope: inner, site: innerSite)) }
                let (p, innerRun) = self.pipeline(user.body, input: input, scope: inner, site: innerSite)
                return .promise(Self.annotating(p, innerRun))
            }
            switch resolved {
            case .value(let a): return try start(a)
            case .promise(let p): return .promise(p.then(on: self.session.executor, resolving: start))
            }
        }
    }
}
