/// A promise that settles a given number of turns from now.
extension Promise {
    /// A promise that settles with `result` after `turns` jobs of its own, each queued behind
    /// what is queued when the one before runs: the turn in which the last of a chain of
    /// `turns` handlers that each hand their value on would settle, had the first been queued
    /// now. What is computed at once and must be seen when a chain would give it (a stretch of
    /// pure stages, `PureStretch`) settles so. Cancelled, it stops counting. Once nothing else
    /// is ready to run beside it, it settles at once: the turns left could not be told apart.
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
        // The turns left are counted only while another job is ready beside this one: alone on
        // its executor's thread, each turn would queue this job again and run it at once, before
        // anything else could run (a job from another thread, a task, a timer waits for the
        // thread's jobs to run out), so settling now is the same run. While an observer records
        // the jobs, every turn is one.
        if left > 0, PromiseObservation.isActive || promise.execRef.serialExecutor?.runsAlone != true {
            schedule()
        } else {
            promise.settle(result)
        }
    }
}
