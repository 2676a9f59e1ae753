/// What few promises need, kept out of the promise itself: reactions after the first, upstream
/// promises after the first, cancel handlers, and the count of cancelled dependents. Guarded by
/// the lock of the promise that holds it.
final class PromiseRareState {
    let id: Int
    let name: String?
    var moreReactions: [AnyPromise] = []
    var moreUpstream: [AnyPromise] = []
    /// The cancel handlers, in the order they were registered, as one function (a second
    /// handler is chained after the first): most promises that have one have only one, and a
    /// list would take a block of its own.
    var cancelHandler: (@Sendable () -> Void)?
    var cancelledDependents: UInt32 = 0
    /// The `then` of the thenable this promise stands for, until it is called
    /// (`Promise.thenable`): a `ThenableCall` of the promise's type.
    var thenable: AnyObject?

    init(id: Int = 0, name: String? = nil) {
        self.id = id
        self.name = name
    }

    /// True when it must outlive settling (it holds the id or name).
    var hasMeta: Bool { id != 0 || name != nil || thenable != nil }

    /// What settling takes out.
    struct Taken {
        var reactions: [AnyPromise]
        var upstream: [AnyPromise]
        var cancelHandler: (@Sendable () -> Void)?
    }

    /// Empties the lists, for a promise that settles, and returns what they held.
    func take() -> Taken {
        defer {
            moreReactions = []
            moreUpstream = []
            cancelHandler = nil
        }
        return Taken(reactions: moreReactions, upstream: moreUpstream, cancelHandler: cancelHandler)
    }

    /// Registers `handler` to run after the handlers registered before it.
    func addCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        guard let before = cancelHandler else {
            cancelHandler = handler
            return
        }
        cancelHandler = {
            before()
            handler()
        }
    }
}
