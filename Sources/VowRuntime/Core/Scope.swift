import VowValue

/// Variables visible to a stage: `def` parameters over the session's globals.
///
/// Sendable: its fields are `let`s; the session's globals it reads are touched on the session
/// executor only, where every lookup runs.
final class Scope: @unchecked Sendable {
    let locals: [String: Binding]
    let parent: Scope?
    let session: Session

    init(session: Session, locals: [String: Binding] = [:], parent: Scope? = nil) {
        self.session = session
        self.locals = locals
        self.parent = parent
    }

    func lookup(_ name: String) -> Binding? {
        var s: Scope? = self
        while let cur = s {
            if let b = cur.locals[name] { return b }
            s = cur.parent
        }
        // Reading a promise by name does not handle its rejection by itself: what waits for it
        // attaches a reaction (a chain, a combinator, a template waiting), as `x.then(…)` or
        // `await x` does, and `let y = $x` is `const y = x`, which handles nothing.
        let found = session.globals[name]
        if found == nil, name == "env" { return .value(session.environmentRecord) }
        return found
    }
}
