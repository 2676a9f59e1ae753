import Foundation
import VowPromises
import VowSyntax
import VowValue

/// `retry N`: re-runs everything upstream.
struct RetryStage: StageDefinition {
    static let name = "retry"
    /// In the JavaScript twin (docs/javascript-twin.md).
    static let twin = StageTwin.control
    static let settlement: String? = "settles when its inputs do"
    static let rerunsUpstream = true
    static let onRejection = RejectionRole.reruns
    static let passesStream = true
    static let group = StageGroup.control
    static let synopsis = "retry N [--delay D] [--backoff exp] [--on KINDS|STATUSES]"
    static let summary = "Re-runs everything upstream up to N more times while it rejects."
    static let help = """
        When the pipeline before it rejects, runs it again, up to N retries (N+1 attempts in all),
        waiting --delay between attempts (doubling each time with --backoff exp). --on takes a
        comma-separated list of error kinds and HTTP statuses to retry (`--on network,429,503`:
        a 400 is not retried then; default: every kind but syntax, type and cancelled). Everything
        upstream runs again, so a stage there that starts something (a job, a POST) starts it
        again on every attempt: put `retry` right after what may fail. An HTTP 429 or 503 response with a Retry-After header waits that long instead
        (at most 5 minutes). Rejects with the last error.
        """
    static let flags = [
        delay.spec, backoff.spec, on.spec,
    ]
    /// `--delay D`.
    static let delay = Flag.duration("delay", help: "wait between attempts (default 0)")
    /// `--backoff exp`.
    static let backoff = Flag.value("backoff", value: "exp", help: "exp doubles the delay after each attempt")
    /// `--on KINDS`.
    static let on = Flag.value("on", value: "KINDS", help: "comma-separated error kinds and HTTP statuses to retry (network,429,503)")
    static let argumentStyle = ArgumentStyle.raw
    static let examples = [
        StageExample("sim --fail 1.0 --seed 3 x | retry 2 --delay 10ms | catch pick message", "simulated failure (seed 3, attempt 3)"),
    ]

    func apply(_ call: StageCall) throws -> Promise<Value> {
        guard let upstream = call.upstream, let rerun = call.rerunUpstream else {
            throw call.error(.type, "put it after the stages to retry: … | retry 3")
        }
        let args = StageArguments(positional: [], flags: [:], stage: "retry")
        guard let nArg = call.positional.first else { throw call.error(.type, "missing N (e.g. retry 3)") }
        let n = try args.integer(try call.plain(nArg), "N")
        let delay = try call.plain(Self.delay) ?? 0
        let backoff: RetryBackoff = try call.plain(Self.backoff)?.stringValue == "exp" ? .exponential : .constant
        let on = try call.plain(Self.on).map { try Self.retried($0, call) }
        let first = upstream
        let made = Locked(0)
        let began = ContinuousClock.now
        return Promise<Value>.retry(
            attempts: n + 1, delay: delay, backoff: backoff, name: "retry", on: call.executor,
            shouldRetry: { e, _ in
                let error = toVowError(e)
                let k = error.kind
                let go: Bool
                if let on {
                    let status = k == .http ? error.details["status"]?.intValue : nil
                    go = k != .exit && (on.kinds.contains(k) || status.map(on.statuses.contains) == true)
                } else {
                    go = ![.syntax, .type, .cancelled, .exit].contains(k)
                }
                guard go else { return .stop }
                // An HTTP 429 or 503 with Retry-After says how long to wait (at most 5 minutes).
                if k == .http, let status = error.details["status"]?.intValue, status == 429 || status == 503,
                    let after = error.details["retryAfter"]?.doubleValue
                {
                    return .retryAfter(min(after, 300))
                }
                return .retry
            },
            { attempt in
                made.withLock { $0 = attempt }
                return attempt == 1 ? first : rerun()
            }
        ).transformedAtOnce { r in
            // The error that ends the retrying says how many attempts were made, and over how
            // long: in its fields and in the context it is printed with (its message stays).
            guard case .failure(let e) = r, !(e is PromiseCancelledError) else { return r }
            var error = toVowError(e)
            guard error.kind != .cancelled else { return r }
            let attempts = made.withLock { $0 }
            let seconds = (ContinuousClock.now - began).inSeconds
            let note = "after \(attempts) attempt\(attempts == 1 ? "" : "s") in \(String(format: "%.2f", seconds))s (retry \(n))"
            if error.details["attempts"] == nil {
                error.details["attempts"] = .int(attempts)
                error.details["elapsed"] = .double((seconds * 1000).rounded() / 1000)
            }
            if error.origin != nil { error.origin?.context.append(note) } else { error.pendingContext.append(note) }
            return .failure(error)
        }
    }
}

extension RetryStage {
    /// What `--on` retries: error kinds, and HTTP statuses (an `http` error with that status).
    struct Retried: Sendable {
        var kinds: Set<VowError.Kind> = []
        var statuses: Set<Int> = []
    }

    /// Reads `--on network,429,503`; a word that is neither a kind nor a status is an error that
    /// lists the kinds.
    static func retried(_ v: Value, _ call: StageCall) throws -> Retried {
        let text = v.stringValue ?? JSONWriter.compact(v)
        var r = Retried()
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            if let status = Int(word), (100...599).contains(status) {
                r.statuses.insert(status)
            } else if let kind = VowError.Kind(rawValue: word) {
                r.kinds.insert(kind)
            } else {
                let kinds = ["http", "network", "timeout", "json", "pick", "io", "process", "user", "aggregate"]
                throw call.error(.type, "--on: '\(word)' is neither an error kind (\(kinds.joined(separator: ", "))) nor an HTTP status (100 to 599)", flag: "on")
            }
        }
        return r
    }
}

extension RetryStage: TwinWriting {
    static let twinReference: String? = "`vow.retry(() => upstream, N + 1, D, exp, on)`: the upstream runs again while it rejects with what `on` retries"

    /// `vow.retry(() => upstream, N + 1, D, exp, on)`: the upstream becomes a function of no arguments.
    static func twinChained(
        _ plan: StagePlan, upstream: String, depth: Int, origin: TwinOrigin?, collects: Bool, in twin: JavaScriptTwin
    ) -> String? {
        let n = twin.positional(plan).first.map { twin.value($0, input: "null", depth: depth) } ?? "0"
        let delay = twin.flag(delay, in: plan).map { twin.value($0, input: "null", depth: depth) } ?? "0"
        let exp = twin.flag(backoff, in: plan).map { twin.value($0, input: "null", depth: depth) == "\"exp\"" } ?? false
        let on = twin.flag(on, in: plan).map { ", " + twin.value($0, input: "null", depth: depth) } ?? ""
        let body = upstream.replacingOccurrences(of: "\n", with: "\n  ")
        return "vow.retry(() => \(body), \(n) + 1, \(delay), \(exp)\(on))"
    }
}

extension RetryStage: StageExplaining {
    /// Runs the stages before it again while attempts remain.
    static func explanation(_ c: Explainer.Context) -> String? {
        "when \(c.prev) rejects, runs the stages before it again, up to \(c.kind.args.split(separator: " ").first.map(String.init) ?? "N") more times; rejects with the last error"
    }
}
