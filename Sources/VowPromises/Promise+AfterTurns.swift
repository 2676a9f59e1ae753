/// A promise that settles a given number of turns from now.
extension Promise {
    /// A promise that settles with `result` after `turns` jobs of its own, each queued behind
    /// what is queued when the one before runs: the turn in which the last of a chain of
    /// `turns` handlers that each hand their value on would settle, had the first been queued
    /// now. What is computed at once and must be seen when a chain would give it (a stretch of
    /// pure stages, `PureStretch`) settles so. Cancelled, it stops counting.
    public static func settling(
        _ result: Result<T, any Error>, afterTurns turns: Int, on executor: any PromiseExecutor
    ) -> Promise<T> {
        let p = Promise(name: nil, execRef: ExecutorRef(executor), parent: nil)
        p.announce(parent: nil, name: nil, attributes: nil)
        if turns <= 0 {
            p.settle(result)
        } else {
            p.execRef.enqueue(TurnCountdown(promise: p, result: result, turns: turns))
        }
        return p
    }
}

/// The jobs of `Promise.settling(_:afterTurns:on:)`: one object, queued again after each run
/// until the count is spent, so that counting allocates nothing a turn.
///
/// Sendable: `left` changes only in `run`, on the executor, one run at a time; the rest are `let`s.
final class TurnCountdown<T: Sendable>: ReactionJob, @unchecked Sendable {
    let promise: Promise<T>
    let result: Result<T, any Error>
    private var left: Int

    init(promise: Promise<T>, result: Result<T, any Error>, turns: Int) {
        self.promise = promise
        self.result = result
        self.left = turns
        super.init(execRef: promise.execRef)
    }

    override func run() {
        left -= 1
        guard promise.isPending else { return }  // cancelled: no more turns
        if left > 0 {
            schedule()
        } else {
            promise.settle(result)
        }
    }
}
