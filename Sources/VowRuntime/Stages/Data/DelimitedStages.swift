import VowPromises
import VowSyntax
import VowValue

/// What `csv`/`tsv` and `to-csv`/`to-tsv` share: the reading of text into records and the
/// writing of records into lines, on a whole value or on a stream, row by row.
enum Delimited {
    /// `--no-header`, for reading and writing.
    static let noHeader = Flag.switch("no-header", help: "no header row: rows are lists of fields (reading), or no header line is written")
    /// `--columns a,b`, for writing.
    static let columns = Flag.value("columns", value: "a,b", help: "the columns, in this order (a list or comma-separated text); by default every key, in the order keys first appear (as table)")

    /// Text (or a stream of lines) read into records: with a header, a list of records keyed by
    /// it; with `--no-header`, a list of lists of fields. A stream gives a stream of them.
    static func read(_ input: Value, _ args: StageArguments, _ call: StageCall, stage: String, delimiter: Character) throws -> Resolution<Value> {
        let header = !args[noHeader]
        if let source = input.stream {
            return .value(.opaque(stream(source, call, stage: stage, delimiter: delimiter, header: header)))
        }
        guard case .string(let text) = Pick.target(input) else {
            throw VowError(.type, "\(stage): expected text, got \(input.typeName)")
        }
        let records: [[String]]
        do { records = try DelimitedText.parse(text, delimiter: delimiter) } catch { throw VowError(.type, "\(stage): \(error.message)") }
        guard header else { return .value(.list(records.map { .list($0.map(Value.string)) })) }
        guard let names = records.first else { return .value(.list([])) }
        let keys = try headerKeys(names, stage: stage)
        var out: [Value] = []
        out.reserveCapacity(records.count - 1)
        for (i, fields) in records.dropFirst().enumerated() {
            out.append(try record(fields, keys, stage: stage, row: i + 2))
        }
        return .value(.list(out))
    }

    /// The header's names as keys; a name given twice is an error, as a record has one of each.
    static func headerKeys(_ names: [String], stage: String) throws -> [String] {
        var seen: [String: Int] = [:]
        for (i, n) in names.enumerated() {
            if let first = seen[n] {
                throw VowError(.type, "\(stage): the header names '\(n)' twice (columns \(first + 1) and \(i + 1)); give --no-header to read rows as lists")
            }
            seen[n] = i
        }
        return names
    }

    /// One row as a record keyed by `keys`: a missing field is null; a field more than the
    /// header names is an error naming the row.
    static func record(_ fields: [String], _ keys: [String], stage: String, row: Int) throws -> Value {
        guard fields.count <= keys.count else {
            throw VowError(.type, "\(stage): row \(row) has \(fields.count) fields, the header names \(keys.count)")
        }
        var r = Record()
        for (i, k) in keys.enumerated() { r[k] = i < fields.count ? .string(fields[i]) : .null }
        return .record(r)
    }

    /// A stream of lines read as records, a record that spans lines (a quoted line break) kept
    /// until it is complete.
    static func stream(_ source: ValueStream, _ call: StageCall, stage: String, delimiter: Character, header: Bool) -> ValueStream {
        let ex = call.session.executor
        let out = ValueStream(label: "rows of \(source.label)", capacity: source.capacity)
        out.onCancel { source.cancel() }
        let state = Locked((reader: DelimitedText.Reader(delimiter: delimiter), keys: [String]?.none, row: 0))
        @Sendable func emit(_ records: [[String]]) throws -> [Value] {
            try state.withLock { s in
                var made: [Value] = []
                for fields in records {
                    s.row += 1
                    guard header else {
                        made.append(.list(fields.map(Value.string)))
                        continue
                    }
                    guard let keys = s.keys else {
                        s.keys = try headerKeys(fields, stage: stage)
                        continue
                    }
                    made.append(try record(fields, keys, stage: stage, row: s.row))
                }
                return made
            }
        }
        @Sendable func offer(_ values: [Value]) -> Promise<Void> {
            guard !values.isEmpty else { return Promise.resolve((), on: ex) }
            return out.offer(values, on: ex, otherwise: source.cancel)
        }
        source.forEach(on: ex) { item in
            do {
                guard case .string(let text) = item else { throw VowError(.type, "\(stage): expected lines of text, got \(item.typeName)") }
                return offer(try emit(state.withLock { $0.reader.feedLine(text) }))
            } catch {
                return Promise.reject(error, on: ex)
            }
        }.whenSettled(on: ex) { end in
            if case .failure(let e) = end {
                out.finish(e)
                return
            }
            do {
                let last = try state.withLock { (s: inout (reader: DelimitedText.Reader, keys: [String]?, row: Int)) throws -> [String]? in
                    do { return try s.reader.finish() } catch { throw VowError(.type, "\(stage): \(toVowError(error).message)") }
                }
                let values = try emit(last.map { [$0] } ?? [])
                if !values.isEmpty { _ = out.offer(values, resume: {}) }
                out.finish()
            } catch {
                out.finish(error)
            }
        }
        return out
    }

    /// Records (or lists of fields) written as lines joined by CRLF, as RFC 4180 says (no line
    /// break after the last, which it allows, so that the text prints as it reads), with a
    /// header line of the columns unless `--no-header`; a stream of records gives a stream of
    /// lines, the header first (its columns those of the first record, or `--columns`).
    static func write(_ input: Value, _ args: StageArguments, _ call: StageCall, stage: String, delimiter: Character) throws -> Resolution<Value> {
        let given = try columns(args, stage: stage)
        let header = !args[noHeader]
        if let source = input.stream {
            let ex = call.session.executor
            let out = ValueStream(label: "\(stage) of \(source.label)", capacity: source.capacity)
            out.onCancel { source.cancel() }
            let chosen = Locked((columns: given, started: false))
            source.forEach(on: ex) { item in
                do {
                    var lines: [Value] = []
                    let cols = chosen.withLock { c -> [String]? in
                        if !c.started {
                            c.started = true
                            if c.columns == nil, case .record(let r) = item { c.columns = r.keys }
                            if header, let names = c.columns { lines.append(.string(DelimitedText.line(names, delimiter: delimiter))) }
                        }
                        return c.columns
                    }
                    lines.append(.string(DelimitedText.line(try fields(item, cols, stage: stage), delimiter: delimiter)))
                    return out.offer(lines, on: ex, otherwise: source.cancel)
                } catch {
                    return Promise.reject(error, on: ex)
                }
            }.whenSettled(on: ex) { end in
                if case .failure(let e) = end { out.finish(e) } else { out.finish() }
            }
            return .value(.opaque(out))
        }
        let items: [Value]
        switch Pick.target(input) {
        case .list(let l): items = l
        case .record(let r): items = [.record(r)]
        case let other: throw VowError(.type, "\(stage): expected a list of records (or of lists), got \(other.typeName)")
        }
        let rows = items.compactMap { v -> Record? in if case .record(let r) = v { return r } else { return nil } }
        let cols: [String]? = given ?? (rows.isEmpty ? nil : TableLayout.columns(of: rows))
        var lines: [String] = []
        if header, let cols { lines.append(DelimitedText.line(cols, delimiter: delimiter)) }
        for item in items { lines.append(DelimitedText.line(try fields(item, cols, stage: stage), delimiter: delimiter)) }
        return .value(.string(lines.joined(separator: "\r\n")))
    }

    /// `--columns` as a list of names, or nil.
    static func columns(_ args: StageArguments, stage: String) throws -> [String]? {
        guard let c = try args.value(columns) else { return nil }
        let names: [String]
        switch c {
        case .list(let l): names = try l.map { try args.asString($0, "a column") }
        default: names = try args.asString(c, "--columns").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard !names.isEmpty else { throw VowError(.type, "\(stage): --columns needs at least one column") }
        return names
    }

    /// The fields of one row: a record's values in the columns' order (a missing key an empty
    /// field), or a list's elements.
    static func fields(_ item: Value, _ columns: [String]?, stage: String) throws -> [String] {
        switch item {
        case .record(let r): return (columns ?? r.keys).map { DelimitedText.cell(r[$0]) }
        case .list(let l): return l.map { DelimitedText.cell($0) }
        default: throw VowError(.type, "\(stage): a row must be a record or a list, got \(item.typeName)")
        }
    }
}
