import JMESPath
import VowSyntax
import VowValue

/// One stage of a pipeline, resolved: its name looked up (a `def`, a built-in, an external
/// `vow-NAME`), `then X` rewritten to X, its arguments sorted into positional ones and flags by
/// the stage's declaration. None of it depends on the input, so a stage that runs the same
/// pipeline on many inputs (`each`, `then`/`catch` handlers, `iterate`) resolves it once.
///
/// Names are resolved when the plan is made: a `def` given while an `each` is already running
/// does not change the stage its later elements run (see docs/decisions.md).
///
/// A class, so that a plan is handed around (kept by a `PlanCache`, read by each run) without
/// copying its parts. Threading: the planner fills it in (its `var`s are set while planning,
/// `fuse` included) and nothing changes it after; then it is only read, on the session executor.
final class StagePlan: @unchecked Sendable {
    /// What the stage is.
    enum Kind {
        /// `$x | …`, `%2 | …`, `[a, b] | …`: the value itself, evaluated against the input
        /// (boxed, as the last two cases are: an argument is longer than the other payloads).
        indirect case value(Argument)
        /// A built-in or external stage, with its positional arguments (its flags, which few
        /// stages are given, are the plan's `flags`: kept here they made every plan 8 bytes
        /// longer, past the allocator's step).
        case builtin(any StageDefinition.Type, ArgumentList)
        /// A `def` stage (boxed, as the next case is: a long pipeline keeps a plan a stage, and
        /// the payloads of these two would make every plan's kind 24 bytes longer).
        indirect case user(UserStage)
        /// A stage that cannot start (unknown name, bad flags): it rejects with this problem's error.
        indirect case refused(PlanProblem)
    }

    /// The name of the stage that runs (X for `then X`): the node's, empty for a value stage.
    var name: String {
        // Read in place (a run reads it for every element of an `each`): no node copied out.
        if nodes.isEmpty { return rare!.ownName }
        if case .named(let n, _) = nodes[Int(nodeIndex)].head { return n }
        return ""
    }
    /// The node the stage sees (for `then X`, X's node).
    var node: StageNode { nodes.isEmpty ? rare!.ownNode! : nodes[Int(nodeIndex)] }
    /// The node's arguments as written (flags among them), read in place: `node.arguments`
    /// copies the whole node out first.
    var writtenArguments: ArgumentList { nodes.isEmpty ? rare!.ownNode!.arguments : nodes[Int(nodeIndex)].arguments }
    /// Where the stage is written: its node's span, read in place, or for a rewritten `then X`
    /// the whole `then` stage's (`rewrittenThen`).
    var writtenSpan: SourceSpan {
        if let rare {
            if let whole = rare.rewrittenThen { return whole }
            if nodes.isEmpty { return rare.ownNode!.span }
        }
        return nodes[Int(nodeIndex)].span
    }
    /// The argument nodes as the plan bound them: the positional ones (flags removed) and the
    /// flags' value nodes by name (nil for a switch); a stage that binds no flags (a `def`, a
    /// value) has all its arguments positional.
    var argumentNodes: (positional: ArgumentList, flags: [String: [Argument?]]) {
        if case .builtin(_, let positional) = kind { return (positional, flags) }
        return (writtenArguments, [:])
    }
    /// The pipeline's stages the node is one of, and its place among them: a plan keeps the
    /// list (shared with the syntax tree) rather than a copy of its node, 16 bytes where a node
    /// is 64. Empty for a node of the plan's own (`Rare.ownNode`: a rewritten `then`, an inner
    /// stage).
    private let nodes: StageNodes
    /// Four bytes, beside `onRejection`: a plan is 72 bytes, which the allocator rounds to 80
    /// where 88 went to 96.
    private let nodeIndex: UInt32
    /// What the stage does with a rejection that reaches it (its definition's `onRejection`,
    /// kept when the stage cannot start, so that it is still not listed as skipped).
    var onRejection = RejectionRole.skipped
    /// True when `again` made this plan from the plan of the stage just before it, every argument
    /// the very same (`sameKind`): the two plan alike (`plansAlike(before:)`), known without
    /// comparing them again. One byte, beside `onRejection`, in what was padding.
    private(set) var alikeBefore = false
    /// What the stage is.
    let kind: Kind
    /// `catch` and `finally`: handlers that run only on a rejection or on either outcome.
    var isHandler: Bool { onRejection.isHandler }
    /// What few stages have (an inner stage, a rewritten `then`, a look-ahead), made when one
    /// is set: a long pipeline keeps a plan a stage, so what most stages lack takes no room in
    /// them.
    private var rare: Rare?

    /// The fields of a plan that few stages set.
    private final class Rare {
        var inner: StagePlan?
        var ownNode: StageNode?
        /// `ownNode`'s name (empty for a value stage), set with it.
        var ownName = ""
        var nameAsWritten: String?
        var rewrittenThen: SourceSpan?
        var pickAhead: PickAhead?
        var filterAhead: String?
        var foldAhead: String?
        var feedsJSON = false
        var countedAhead = false
        var flags: [String: [Argument?]] = [:]
    }

    private func rareFields() -> Rare {
        if let rare { return rare }
        let made = Rare()
        rare = made
        return made
    }

    /// The flags a built-in stage was given, by name: each value node, or nil for a switch given
    /// without a word (empty for most stages, and for a stage that is not built in).
    var flags: [String: [Argument?]] {
        get { rare?.flags ?? Dictionary() }  // not `[:]`, which is a call building it from an empty list
        set { rareFields().flags = newValue }
    }
    /// The inner stage of `then X…`, `catch X…`, `each X…` (X with the rest of the arguments),
    /// planned; nil when the stage takes none, or takes a group.
    var inner: StagePlan? {
        get { rare?.inner }
        set { rareFields().inner = newValue }
    }
    /// The name the pipeline's records give the stage (`then` for a rewritten `then X`).
    var nameAsWritten: String {
        get { rare?.nameAsWritten ?? name }
        set { rareFields().nameAsWritten = newValue }
    }
    /// For a rewritten `then X`, the span of the whole `then` stage (traces label its promise).
    var rewrittenThen: SourceSpan? {
        get { rare?.rewrittenThen }
        set { rareFields().rewrittenThen = newValue }
    }
    /// For `json` followed by `pick EXPR` with a literal expression: the simple path `json` finds
    /// the value of itself (`JSONPathScan`), or the expression `pick` searches the document's
    /// tape with (`JSONTape`).
    var pickAhead: PickAhead? {
        get { rare?.pickAhead }
        set { rareFields().pickAhead = newValue }
    }
    /// For `each json` followed by `where EXPR` with a literal expression: EXPR, which `each`
    /// searches on each item of a stream as it parses it, keeping only the items it holds for
    /// (`where` still filters what it gets, which changes nothing).
    var filterAhead: String? {
        get { rare?.filterAhead }
        set { rareFields().filterAhead = newValue }
    }
    /// For `each STAGE…` followed by `pick EXPR` with a literal EXPR that reads the list only
    /// through counts, sums and averages, of it or of the groups of a `group_by` over it
    /// (`ListFold`): EXPR, which `each` over a stream computes as the results come, keeping none.
    var foldAhead: String? {
        get { rare?.foldAhead }
        set { rareFields().foldAhead = newValue }
    }
    /// For `each STAGE…` followed by `len`: only how many results there are is read downstream,
    /// so `each` need not keep them (`StageCall.keepsResults`).
    var countedAhead: Bool {
        get { rare?.countedAhead ?? false }
        set { rareFields().countedAhead = newValue }
    }
    /// For `read PATH` followed by `json`: `read` hands the file's bytes to `json` as they are
    /// (`FileText`), without making a String of them, which would check the UTF-8 a second time.
    var feedsJSON: Bool {
        get { rare?.feedsJSON ?? false }
        set { rareFields().feedsJSON = newValue }
    }

    /// A plan of `node`, the stage whose name (or value) it has: that stage runs, named so in
    /// the pipeline's records unless `nameAsWritten` is set. `place`, when given, is the list
    /// of stages `node` is in and its index there, which the plan keeps instead of the node.
    /// `node` is lent (`__shared`): the plan keeps it only when it is its own (no `place`), and
    /// a copy made to be dropped cost a retain and a release of each of its parts.
    convenience init(node: __shared StageNode, place: (nodes: StageNodes, index: Int)?, kind: Kind) {
        if let place {
            self.init(place: place, kind: kind)
        } else {
            self.init(own: node, kind: kind)
        }
    }

    /// A plan of `node`, which it keeps as its own (`Rare.ownNode`).
    private init(own node: __shared StageNode, kind: Kind) {
        self.kind = kind
        self.nodes = StageNodes()
        self.nodeIndex = 0
        let rare = rareFields()
        rare.ownNode = node
        if case .named(let n, _) = node.head { rare.ownName = n }
    }

    /// A plan of the stage at `place`, which the plan keeps (the node is not read).
    init(place: (nodes: StageNodes, index: Int), kind: Kind) {
        self.kind = kind
        self.nodes = place.nodes
        // A pipeline of 4 billion stages is not parsed before memory runs out; never a trap.
        self.nodeIndex = UInt32(clamping: place.index)
    }

    /// The plan of the stage at `place`, when it is written as this plan's stage is (the same
    /// name, and arguments of the same literal kinds and texts, wherever they are, or groups
    /// where this plan's are groups, or, for a stage that takes plain values, plain literals of
    /// the same kinds whatever their texts) and this plan is of a built-in stage given no flag, with
    /// nothing of its own (no inner stage, not a rewritten `then`): planning it would give this
    /// plan's kind again, since nothing in a plan depends on where its stage is written, nor on
    /// what a group holds (its stages are planned when it runs, and by the check's walk). Nil
    /// otherwise; the caller plans `node` itself.
    func again(at place: (nodes: StageNodes, index: Int)) -> StagePlan? {
        var identical = true
        guard writtenAlike(place.nodes, at: place.index, identical: &identical), case .builtin(let def, _) = kind else { return nil }
        let made = remade(def, in: place.nodes, at: place.index)
        made.alikeBefore = identical
        return made
    }

    /// This plan, of built-in stage `def`, made again for the stage at `index` of `stages`, with
    /// that stage's own arguments (`again`, `placed(in:at:)`).
    private func remade(_ def: any StageDefinition.Type, in stages: StageNodes, at index: Int) -> StagePlan {
        let made = StagePlan(place: (stages, index), kind: .builtin(def, stages[index].arguments))
        made.onRejection = onRejection
        return made
    }

    /// True when the planner may give this plan to the stage after its own too, when that stage
    /// is written byte for byte as its own (`Planner.plan(_:sharing:)`): a plan of a built-in
    /// stage given no flag, with nothing of its own (what `again` would make again), whose stage
    /// does not look ahead (a look-ahead is set on the plan itself, and would differ with the
    /// stage after each place).
    var canBeShared: Bool {
        guard rare == nil, !nodes.isEmpty, case .builtin(let def, _) = kind else { return false }
        return !def.looksAhead
    }

    /// This plan as the plan of the stage at `index` of `stages`: itself when it is that
    /// stage's, or is of a stage in another list, or has a node of its own; else, for a plan
    /// the planner shared among stages of `stages` written byte for byte alike (`canBeShared`),
    /// a plan of the stage at `index` made as `again` makes one, which a run of that stage
    /// reads its place and its arguments' places from.
    func placed(in stages: StageNodes, at index: Int) -> StagePlan {
        guard isShared(in: stages, at: index), case .builtin(let def, _) = kind else { return self }
        return remade(def, in: nodes, at: index)
    }

    /// Where the stage at `index` of `stages` is written, when this plan is its (shared or not,
    /// `placed(in:at:)`): read without making its plan.
    func writtenSpan(in stages: StageNodes, at index: Int) -> SourceSpan {
        isShared(in: stages, at: index) ? stages[index].span : writtenSpan
    }

    /// True when this plan is given to the stage at `index` of `stages` though it is the plan of
    /// another stage of that list: the planner shared it (`canBeShared`).
    @inline(__always)
    private func isShared(in stages: StageNodes, at index: Int) -> Bool {
        Int(nodeIndex) != index && rare == nil && !nodes.isEmpty && nodes.isSame(as: stages)
    }

    /// `plansAlike(before)`, where `before` is the plan of the stage just before this one in
    /// its pipeline: answered at once when it is that very plan, shared by the two stages
    /// (`canBeShared`), or when `again` found their arguments the very same (`alikeBefore`)
    /// and neither plan has been given anything of its own since (a look-ahead).
    @inline(__always)
    func plansAlike(before: StagePlan) -> Bool {
        self === before || knownAlike(to: before) || plansAlike(before)
    }

    /// `PureStage.hasDirectForm(self)`, where `before`, the plan of the stage just before this
    /// one, has one: answered at once when it is that very plan (shared, `canBeShared`) or the
    /// two plan alike by `alikeBefore` (the same stage, the very same arguments, the same role
    /// with a rejection).
    @inline(__always)
    func hasDirectForm(after before: StagePlan) -> Bool {
        self === before || knownAlike(to: before) || PureStage.hasDirectForm(self)
    }

    /// True when planning found this plan alike to `before`, the plan of the stage just before
    /// it (`alikeBefore`), and neither has been given anything of its own since (a look-ahead).
    @inline(__always)
    private func knownAlike(to before: StagePlan) -> Bool {
        alikeBefore && rare == nil && before.rare == nil
    }

    /// True when `again` gives a plan of `node`: `node` is written as this plan's stage is, and
    /// this plan is of a built-in stage given no flag, with nothing of its own. The check asks
    /// this alone, without making the plan: such a stage has no problem of its own, only those
    /// of the groups among its arguments.
    func writtenAlike(_ nodes: StageNodes, at index: Int) -> Bool {
        var identical = true
        return writtenAlike(nodes, at: index, identical: &identical)
    }

    /// True when `node` is written as this plan's stage is (`writtenAlike`) with the very same
    /// arguments (`sameKind`), not only plain literals of the same kinds: its plan would run
    /// as this one does on any input.
    func writtenIdentically(_ nodes: StageNodes, at index: Int) -> Bool {
        var identical = true
        return writtenAlike(nodes, at: index, identical: &identical) && identical
    }

    /// `writtenAlike(_:)`; `identical` is set false when an argument is not the very same as
    /// this plan's (`sameKind`).
    func writtenAlike(_ nodes: StageNodes, at index: Int, identical: inout Bool) -> Bool {
        // The cheapest tests first: most stages are not written as the one before them. The
        // kind is looked at once: each look at it copied its arguments. The node is read where
        // it is, its head and its arguments, not copied out whole (as a node passed in was).
        guard rare == nil, !self.nodes.isEmpty, case .named(let name, _) = nodes[index].head, name == self.name else { return false }
        switch kind {
        case .builtin(let def, let positional):
            return Self.argumentsAlike(nodes[index].arguments, positional, of: def, identical: &identical)
        default:
            return false
        }
    }

    /// True when `arguments`, a node's, plan as `positional`, a plan's of `def` given no flag,
    /// do (`writtenAlike`); `identical` is set false when one is not the very same.
    private static func argumentsAlike(
        _ arguments: borrowing ArgumentList, _ positional: borrowing ArgumentList, of def: any StageDefinition.Type,
        identical: inout Bool
    ) -> Bool {
        guard arguments.count == positional.count else { return false }
        for i in 0..<arguments.count {
            // Each taken out once: a copy of one is a retain.
            let argument = arguments[i], planned = positional[i]
            if sameKind(argument, planned) { continue }
            identical = false
            // Two groups plan alike (`planAlike`), whatever they hold: a hop `then (…)` is
            // answered here, before the tests of literals.
            if argument.isGroup && planned.isGroup { continue }
            // A stage that takes plain values (`resolve 1`, `resolve 2`: no expression, no inner
            // stage) plans alike given any plain literals of the same kinds: what its planning
            // gives or refuses (an unknown name, a flag, too many arguments) depends only on its
            // name and its arguments' count and kinds. Its plan holds the node's own arguments,
            // which its run evaluates. Asked before the texts are compared (`planAlike`), which
            // is the dearer test and, for such a stage, the rarer answer.
            if samePlainKind(argument.kind, planned.kind), def.argumentStyle == .values, def.expressionArguments == 0 {
                continue
            }
            guard planAlike(argument, planned) else { return false }
        }
        return true
    }

    /// True when `other` is a plan of the same built-in stage as this one, each given no flag
    /// and with nothing of its own (no inner stage, no look-ahead), with arguments that plan
    /// alike (`planAlike`): the two run alike on any input, only their places in the source
    /// differ.
    func plansAlike(_ other: StagePlan) -> Bool {
        guard rare == nil, other.rare == nil, case .builtin(let def, let positional) = kind,
            case .builtin(let otherDef, let otherPositional) = other.kind,
            ObjectIdentifier(def) == ObjectIdentifier(otherDef), positional.count == otherPositional.count
        else { return false }
        for i in positional.indices where !Self.planAlike(positional[i], otherPositional[i]) { return false }
        return true
    }

    /// True when arguments `a` and `b` give a stage the same plan wherever they are written: the
    /// very same kind (`sameKind`), literals of the same kind and text (`sameLiteral`), or two
    /// groups (what a group holds is planned when it runs).
    static func planAlike(_ a: borrowing Argument, _ b: borrowing Argument) -> Bool {
        sameKind(a, b) || sameLiteral(a.kind, b.kind) || (a.isGroup && b.isGroup)
    }

    /// True when `a` and `b` are plain literals of the same kind (a word or a string with
    /// nothing to fill in, a raw string, a number, a boolean, null, undefined, a duration),
    /// whatever their texts.
    static func samePlainKind(_ a: ArgumentKind, _ b: ArgumentKind) -> Bool {
        switch (a, b) {
        case (.word(let x), .word(let y)), (.string(let x), .string(let y)): return x.isLiteral && y.isLiteral
        case (.rawString, .rawString), (.number, .number), (.boolean, .boolean), (.null, .null), (.undefined, .undefined),
            (.duration, .duration):
            return true
        default: return false
        }
    }

    /// True when `a` and `b` hold the very same kind: the same case, and the same box for its
    /// payload (the parser gives a word written again the first one's, `RecentBytes`). Planning
    /// reads an argument's kind, never its place, so the two plan alike; a look at the bytes,
    /// where `sameLiteral` takes the texts out and compares them.
    /// A kind is one word (its box, the case in its spare bits: `ArgumentKind`), compared as
    /// one; a byte-by-byte compare took 200 instructions a stage.
    static func sameKind(_ a: borrowing Argument, _ b: borrowing Argument) -> Bool {
        withUnsafeBytes(of: a.kind) { x in
            withUnsafeBytes(of: b.kind) { y in
                if x.count == MemoryLayout<UInt64>.size {
                    return x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                }
                return x.elementsEqual(y)
            }
        }
    }

    /// True when `a` and `b` are literals of the same kind and text (a word, a string with nothing
    /// to fill in, a number as written, a constant, a duration); false for anything else.
    static func sameLiteral(_ a: ArgumentKind, _ b: ArgumentKind) -> Bool {
        switch (a, b) {
        case (.word(let x), .word(let y)), (.string(let x), .string(let y)):
            guard let s = x.literalText, let t = y.literalText else { return false }
            return s == t
        case (.rawString(let x), .rawString(let y)): return x == y
        case (.number(_, let i, let s), .number(_, let j, let t)): return i == j && s == t
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.null, .null), (.undefined, .undefined): return true
        case (.duration(_, let s), .duration(_, let t)): return s == t
        default: return false
        }
    }

    /// The built-in stage that runs, or nil for a `def`, a value or a refused stage.
    var definition: (any StageDefinition.Type)? {
        if case .builtin(let def, _) = kind { return def }
        return nil
    }

    /// Lets the stage look at the stage after it (`LooksAhead`): `json | pick`, `read | json`.
    func fuse(next: StagePlan) {
        // Asked first, so that the conformance is looked up only for the stages that look ahead.
        guard let def = definition, def.looksAhead, let looking = def as? any LooksAhead.Type else { return }
        looking.lookAhead(self, next: next)
    }
}
