import VowPromises
import VowValue

/// Work that ran as it does with no observer (a pure stage's items without a promise each, a
/// group's value taken directly, the results only counted before `len`) while an observer was
/// installed that spares large work (`PromiseObservation.sparesLargeWork`: the REPL's recording
/// for `:timeline`): the stage, and how many items it ran (nil for the items of a stream).
/// `:timeline` names it below the chart, and how to have every promise recorded.
public struct UnrecordedWork: Sendable, CustomStringConvertible {
    /// The stage that ran the work.
    public let stage: StageTraceInfo
    /// How many items, or nil for a stream's (not known beforehand).
    public let items: Int?

    /// Tells the observer, if one is installed, that `stage` ran `items` items as with none.
    static func note(_ stage: StageTraceInfo, items: Int?) {
        PromiseObservation.note(UnrecordedWork(stage: stage, items: items))
    }

    /// One line for the chart: which stage, at which line, and what was not recorded.
    public var description: String {
        let what = items.map { "\($0) items" } ?? "the items of a stream"
        return "\(VowError.redactingSecrets(stage.text)) (line \(stage.line)): \(what) ran as in a script, not every promise recorded "
            + "(the REPL records all of up to \(PromiseObservation.smallWork) items a stage; after :trace on, of any number)"
    }

    /// The notes among `entries` (a tracer's), one line each, in the order they came.
    public static func notes(_ entries: [Tracer.Entry]) -> [String] {
        entries.compactMap { e in
            guard case .labelled(0, let attributes) = e.event, let work = attributes as? UnrecordedWork else { return nil }
            return work.description
        }
    }
}

extension StageCall {
    /// True when the `items` items of this stage's work (nil: a stream's, whose number is not
    /// known beforehand, so large work) are to be recorded promise by promise
    /// (`PromiseObservation.records(items:)`); when an installed observer spares them, it is
    /// told (`UnrecordedWork`).
    func recordsItems(_ items: Int?) -> Bool {
        let recorded = items.map(PromiseObservation.records(items:)) ?? PromiseObservation.recordsEveryPromise
        if !recorded, PromiseObservation.isActive { UnrecordedWork.note(traceInfo, items: items) }
        return recorded
    }
}
