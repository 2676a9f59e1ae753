import Synchronization

extension Promise {
    /// JavaScript's `Promise.race`: settles as the first input to settle does, then cancels the
    /// others (an extension over JavaScript; `cancelsOthers: false` leaves them running, as
    /// JavaScript does). `race([])` stays pending forever, as in JavaScript.
    public static func race(
        _ promises: [Promise<T>], name: String? = "race",
        on executor: any PromiseExecutor = PromiseExecutors.main,
        cancelsOthers: Bool = true
    ) -> Promise<T> {
        let result = Promise<T>(name: name, executor: executor, upstream: promises)
        for (i, p) in promises.enumerated() {
            p.whenSettled(on: executor) { r in
                if result.settle(r), cancelsOthers {
                    releaseOthers(promises, except: i, reason: "cancelled: another promise won the race")
                }
            }
        }
        return result
    }
}
