import VowSyntax

/// Where a pipeline sits in the source, for error origins.
struct Site: Sendable {
    let source: SourceText
    let statement: SourceSpan
    /// What an error reports of where the pipeline sits (`let x`, `element 2 of all`),
    /// outermost first. The last note, when it is a place among its stage's elements, is made
    /// into text only here: `all [resolve 1, …]` starts a million sites, and an error reads one.
    var context: [String] { place.map { outer + [$0.text] } ?? outer }
    /// The notes before `place`, or all of them.
    private let outer: [String]
    /// The pipeline's place among the elements or fields of the stage it is in, when it is one.
    private let place: Place?
    /// How many `def` stages this site is nested in (a def's body inside a def's body …).
    var depth = 0
    /// The run of the top-level statement this site belongs to (`Session.nextStatementRun`):
    /// `sim` counts its attempts afresh in each.
    var run = 0

    /// A pipeline's place among the elements of a list or the fields of a record that a stage
    /// (or a literal) holds: `element 2 of all`, `field a of a record`.
    enum Place: Sendable {
        /// The element at `index` (from 1) of `owner`'s list.
        case element(Int, of: String)
        /// The field `key` of `owner`'s record.
        case field(String, of: String)

        /// The note an error reports.
        var text: String {
            switch self {
            case .element(let index, let owner): return "element \(index) of \(owner)"
            case .field(let key, let owner): return "field \(key) of \(owner)"
            }
        }
    }

    /// A site whose error notes are `context`.
    init(source: SourceText, statement: SourceSpan, context: [String], depth: Int = 0, run: Int = 0) {
        self.source = source
        self.statement = statement
        self.outer = context
        self.place = nil
        self.depth = depth
        self.run = run
    }

    /// This site, for a pipeline at `place` in it (its notes and then the place's).
    func adding(_ place: Place) -> Site {
        Site(source: source, statement: statement, outer: context, place: place, depth: depth, run: run)
    }

    private init(source: SourceText, statement: SourceSpan, outer: [String], place: Place, depth: Int, run: Int) {
        self.source = source
        self.statement = statement
        self.outer = outer
        self.place = place
        self.depth = depth
        self.run = run
    }
}
