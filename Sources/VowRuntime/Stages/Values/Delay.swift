import VowPromises
import VowValue

/// `delay DURATION [VALUE]`: fulfils later.
struct DelayStage: ValueStage {
    static let name = "delay"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.promise("delay")
    static let settlement: String? = "fulfils when the timer fires"
    static let group = StageGroup.values
    static let synopsis = "delay DURATION [VALUE]"
    static let summary = "Fulfils with VALUE (or the input) after DURATION; cancelling it clears the timer."
    static let help = """
        Waits DURATION (250ms, 2s, 1.5m) and fulfils with VALUE, or with the input when no VALUE is
        given. The timer is cleared when the promise is cancelled (Ctrl-C, timeout, race). As
        node's setTimeout, a wait under 1ms is 1ms (`delay 0s` is `setTimeout(f, 0)`), and timers
        due together fire in the order they were set.
        """
    static let examples = [
        StageExample("delay 10ms done", "done"),
        StageExample("echo 5 | delay 1ms", "5"),
        StageExample("race [delay 50ms slow, delay 10ms fast]", "fast"),
    ]

    func run(_ input: Value, _ args: StageArguments, _ call: StageCall) throws -> Resolution<Value> {
        guard let d = args[0] else { throw call.error(.type, "missing DURATION (e.g. delay 250ms)") }
        // node's floor: setTimeout(f, 0) waits 1ms, so a 0s and a 1ms timer set in that order
        // fire in that order.
        let seconds = max(try args.seconds(d, "DURATION"), 0.001)
        return .promise(Promise.delay(seconds, value: args[1] ?? input, name: "delay", on: call.session.executor))
    }
}
