import VowSyntax
/// The stages a session knows, by name and alias.
public struct StageRegistry: Sendable {
    /// Every stage, in registration order.
    public let stages: [any StageDefinition.Type]
    /// The stages by name and alias (`StageNameTable`).
    private let table: StageNameTable

    /// A registry of `stages`.
    public init(_ stages: [any StageDefinition.Type]) {
        self.stages = stages
        var entries: [(name: String, stage: any StageDefinition.Type)] = []
        for s in stages {
            entries.append((s.name, s))
            for a in s.aliases { entries.append((a, s)) }
        }
        table = StageNameTable(entries)
    }

    /// The stage named `name` (or aliased so).
    public func stage(named name: String) -> (any StageDefinition.Type)? { table[name] }

    /// The names and aliases of the stages whose arguments form another stage (`then`, `catch`,
    /// `each` …: `ArgumentStyle.stage`).
    public var namesTakingAStage: Set<String> {
        Set(stages.filter { $0.argumentStyle == .stage }.flatMap { [$0.name] + $0.aliases })
    }

    /// The names of the stages that combine promises (`StageDefinition.combinesPromises`), the
    /// names their promises carry in a trace.
    public var namesCombiningPromises: Set<String> {
        Set(stages.filter { $0.combinesPromises }.map { $0.name })
    }

    /// Whether `pipeline` ends with a stage that writes its value out itself (`print`), so that
    /// its statement prints nothing more.
    public func printsItsValue(_ pipeline: Pipeline) -> Bool {
        guard let name = pipeline.stages.last?.name else { return false }
        return stage(named: name)?.printsItsValue ?? false
    }

    /// What a program prints of a statement that runs `pipeline` (`ProgramPrinting`): by its
    /// last stage; a `def` or a program's stage prints its value unless it is null.
    public func inPrograms(_ pipeline: Pipeline) -> ProgramPrinting {
        guard let name = pipeline.stages.last?.name, let stage = stage(named: name) else { return .unlessNull }
        return stage.inPrograms
    }

    /// Every name and alias.
    public var names: [String] { table.names.sorted() }

    /// The known name closest to `name`, for "did you mean …?".
    public func suggestion(for name: String, extra: [String] = []) -> String? {
        closest(to: name, among: names + extra)
    }
}

/// The candidate within a small edit distance of `word`, if any.
func closest(to word: String, among candidates: [String]) -> String? {
    var best: (String, Int)? = nil
    for c in candidates {
        let d = editDistance(word, c)
        if d <= min(3, max(2, c.count / 3)), d < c.count, best == nil || d < best!.1 { best = (c, d) }
    }
    return best?.0
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
