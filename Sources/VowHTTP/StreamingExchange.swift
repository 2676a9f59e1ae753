import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import VowPromises
import VowValue

/// How `fetch … --stream` reads a body as it arrives.
public enum StreamReading: String, Sendable {
    /// By the response's Content-Type: `text/event-stream` is `sse`, NDJSON and JSON lines are
    /// `lines`, anything else `text`.
    case auto
    /// Server-sent events: one record per event.
    case sse
    /// One JSON value per line (NDJSON, JSON lines); blank lines are skipped.
    case lines
    /// One text line per line.
    case text
}

extension HTTPEngine {
    /// `fetch … --stream`: fulfils with a stream once the response head has arrived (redirects
    /// followed; a 4xx or 5xx status rejects as without `--stream`), then reads the body as it
    /// arrives, at the consumer's pace: the client reads no faster than the stream is consumed.
    /// `--timeout` bounds the wait for the head only. Cancelling the stream aborts the request
    /// (the server sees the connection close).
    ///
    /// Server-sent events reconnect as the standard's EventSource does, when the server has asked
    /// for it with a `retry:` field: once the connection ends (the server closed it, or it broke),
    /// after `retry` milliseconds, the same request goes again with `Last-Event-ID`. A 204 answer
    /// ends the stream; an HTTP error, or a reconnection that cannot connect, ends it with that
    /// error; so do more than `maxFruitlessReconnections` reconnections in a row that bring no
    /// event.
    public func stream(_ given: HTTPRequestSpec, reading: StreamReading, on executor: any PromiseExecutor) -> Promise<Value> {
        var asked = given
        if !asked.hasHeader("Accept-Encoding") { asked.headers.append(("Accept-Encoding", "gzip, deflate")) }
        let spec = asked
        let (promise, resolver) = Promise<Value>.pending(name: "http", on: executor)
        let headArrived = Atomic<Bool>(false)
        let task = Task {
            var stream: ValueStream? = nil
            do {
                let (response, final) = try await self.streamHead(spec)
                headArrived.store(true, ordering: .releasing)
                let mode = reading == .auto ? Self.reading(for: response.headers.first(name: "Content-Type")) : reading
                let s = ValueStream(label: "\(mode == .sse ? "events" : "lines") of \(final.method) \(redactURL(final.url))")
                stream = s
                executor.enqueueTask { resolver.fulfill(.opaque(s)) }
                var pending: [UInt8] = []
                var events = ServerSentEvents()
                var lineNumber = 0
                func items(_ lines: [ArraySlice<UInt8>]) throws -> [Value] {
                    var out: [Value] = []
                    for raw in lines {
                        lineNumber += 1
                        let body = raw.last == 0x0D ? raw.dropLast() : raw
                        switch mode {
                        case .sse:
                            if let e = events.line(String(decoding: body, as: UTF8.self)) { out.append(e) }
                        case .lines:
                            if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                            do {
                                out.append(try JSON.parse(Array(body)))
                            } catch {
                                throw VowError(.json, "line \(lineNumber) of the stream is not JSON: \(error.description)")
                            }
                        case .text, .auto:
                            out.append(String(validating: body, as: UTF8.self).map(Value.string) ?? .bytes(Array(body)))
                        }
                    }
                    return out
                }
                var body = response.body
                var current = final
                var fruitless = 0
                // A line (or an event) longer than --max-size ends the stream with an error:
                // a body with no line break cannot grow without bound.
                let limit = spec.maxSize
                func tooLong() -> VowError {
                    HTTPFailure.lineTooLong(event: mode == .sse, limit: limit).vowError(for: final)
                }
                while true {
                    var brought = false
                    do {
                        for try await chunk in body {
                            // Only the new bytes are searched for line breaks.
                            var scan = pending.count
                            chunk.withUnsafeReadableBytes { pending.append(contentsOf: $0) }
                            var lines: [ArraySlice<UInt8>] = []
                            var from = 0
                            while let nl = pending[scan...].firstIndex(of: 0x0A) {
                                lines.append(pending[from..<nl])
                                from = nl + 1
                                scan = from
                            }
                            let values = try items(lines)
                            pending.removeFirst(from)
                            if pending.count > limit || events.pendingBytes > limit { throw tooLong() }
                            brought = brought || !values.isEmpty
                            if !values.isEmpty, !(await Self.offer(values, to: s)) { return }
                        }
                    } catch where mode == .sse && events.retry != nil && !(error is VowError) && !Task.isCancelled {
                        // A broken connection: the server asked to be reconnected to.
                        pending.removeAll()
                        events.connectionEnded()
                    }
                    guard mode == .sse, let retry = events.retry else { break }
                    // The connection ended and the server asked to be reconnected to.
                    pending.removeAll()
                    events.connectionEnded()
                    fruitless = brought ? 0 : fruitless + 1
                    if fruitless > Self.maxFruitlessReconnections {
                        throw HTTPFailure.eventStreamExhausted(times: fruitless).vowError(for: current)
                    }
                    try await Task.sleep(for: .milliseconds(retry))
                    var again = current
                    again.headers.removeAll { $0.name.equalsIgnoringASCIICase("Last-Event-ID") }
                    if let id = events.lastID { again.headers.append(("Last-Event-ID", id)) }
                    let (next, hop) = try await self.streamHead(again)
                    if next.status.code == 204 { break }
                    body = next.body
                    current = hop
                }
                var last = try items(pending.isEmpty ? [] : [pending[...]])
                if mode == .sse, let e = events.line("") { last.append(e) }
                if !last.isEmpty, !(await Self.offer(last, to: s)) { return }
                s.finish()
            } catch {
                let e = Self.describe(error, spec)
                if let stream {
                    stream.finish(e)
                } else {
                    executor.enqueueTask { resolver.reject(e) }
                }
            }
        }
        resolver.onCancel { task.cancel() }
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(Int64(spec.timeout * 1e9))) {
            guard !headArrived.load(ordering: .acquiring) else { return }
            resolver.reject(HTTPFailure.timeout(limit: spec.timeout, reason: nil).vowError(for: spec))
            task.cancel()
        }
        promise.whenSettled(on: executor) { r in
            timer.cancel()
            if case .success(let v) = r, let s = v.stream { s.onCancel { task.cancel() } }
        }
        WorkInFlight.track(promise)
        return promise
    }

    /// Reconnections in a row that bring no event before an event stream gives up.
    static let maxFruitlessReconnections = 5

    /// The reading a Content-Type asks for.
    static func reading(for contentType: String?) -> StreamReading {
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "text/event-stream": return .sse
        case "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/json-lines":
            return .lines
        default: return .text
        }
    }

    /// Offers `items` to `stream`, waiting while it is full; false once it is stopped.
    static func offer(_ items: [Value], to stream: ValueStream) async -> Bool {
        await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            if !stream.offer(items, resume: { c.resume(returning: true) }) { c.resume(returning: false) }
        } && !stream.isCancelled
    }

    /// The response head of `spec`, redirects followed as `exchange` follows them; a 4xx or 5xx
    /// status throws the `http` error (with the body, read up to `--max-size`).
    func streamHead(_ spec: HTTPRequestSpec) async throws -> (HTTPClientResponse, HTTPRequestSpec) {
        let start = ContinuousClock.now
        let (response, current) = try await lastHop(spec, of: spec, start: start) { .distantFuture }
        if response.status.code >= 400 && !current.allowErrors {
            let body = try await readBody(response, max: current.maxSize, spec: current)
            _ = try answer(makeResponse(response.status, response.version, response.headers, current, body: body, start: start), current)
        }
        return (response, current)
    }
}
