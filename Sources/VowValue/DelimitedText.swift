/// Delimited text as RFC 4180 describes it (CSV), with the delimiter a parameter (a tab for TSV,
/// as Python's `excel-tab` dialect): fields separated by the delimiter, records by CRLF or LF, a
/// field in double quotes may hold the delimiter, quotes (doubled) and line breaks.
public enum DelimitedText {
    /// Splits text into records of fields. A final line break ends the last record; it does not
    /// start an empty one. A quote left open at the end is an error naming its line.
    public static func parse(_ text: String, delimiter: Character) throws(VowError) -> [[String]] {
        var reader = Reader(delimiter: delimiter)
        var records = reader.feed(text)
        if let last = try reader.finish() { records.append(last) }
        return records
    }

    /// Reads records from text given piece by piece (a stream's lines), keeping a record that
    /// spans pieces (a quoted field with a line break) until it is complete.
    public struct Reader: Sendable {
        let delimiter: Character
        private var field = ""
        private var record: [String] = []
        private var quoted = false
        /// Inside a quoted field, a quote was just read: the next character says whether it was
        /// a doubled quote or the end of the field.
        private var quoteSeen = false
        /// The field began with a quote (so it may hold line breaks).
        private var fieldStarted = false
        /// The line the current record started on, for messages.
        private(set) var recordLine = 1
        private var line = 1
        private var pendingCR = false

        /// A reader for fields separated by `delimiter`.
        public init(delimiter: Character) { self.delimiter = delimiter }

        /// The records that `text` completes.
        public mutating func feed(_ text: String) -> [[String]] {
            var done: [[String]] = []
            for c in text {
                if pendingCR {
                    pendingCR = false
                    if c == "\n" { continue }
                }
                if quoted {
                    if quoteSeen {
                        quoteSeen = false
                        if c == "\"" {
                            field.append("\"")
                            continue
                        }
                        quoted = false  // the closing quote: c is read as outside quotes below
                    } else {
                        if c == "\"" {
                            quoteSeen = true
                        } else {
                            if c == "\n" || c == "\r\n" { line += 1 }
                            field.append(c)
                        }
                        continue
                    }
                }
                switch c {
                case delimiter:
                    record.append(field)
                    field = ""
                    fieldStarted = false
                case "\"" where !fieldStarted && field.isEmpty:
                    quoted = true
                    fieldStarted = true
                case "\n", "\r\n", "\r":
                    if c == "\r" { pendingCR = true }
                    line += 1
                    // An empty line is no record (as Python's DictReader skips it).
                    if record.isEmpty && field.isEmpty && !fieldStarted {
                        recordLine = line
                        continue
                    }
                    record.append(field)
                    done.append(record)
                    record = []
                    field = ""
                    fieldStarted = false
                    recordLine = line
                default:
                    field.append(c)
                    fieldStarted = true
                }
            }
            return done
        }

        /// The record a line break would end, for a reader fed lines without their endings.
        public mutating func feedLine(_ text: String) -> [[String]] { feed(text + "\n") }

        /// The last record when the text did not end with a line break; an open quote is an error.
        public mutating func finish() throws(VowError) -> [String]? {
            if quoted && !quoteSeen {
                throw VowError(.type, "a quoted field that starts on line \(recordLine) is never closed")
            }
            quoteSeen = false
            quoted = false
            guard !record.isEmpty || !field.isEmpty || fieldStarted else { return nil }
            record.append(field)
            defer {
                record = []
                field = ""
                fieldStarted = false
            }
            return record
        }
    }

    /// One record as a line (without its line break): a field is quoted when it holds the
    /// delimiter, a quote or a line break, quotes inside doubled (Python's csv module's minimal
    /// quoting); a record of one empty field is `""`, so that it is not read as an empty line.
    public static func line(_ fields: [String], delimiter: Character) -> String {
        if fields == [""] { return "\"\"" }
        return fields.map { field($0, delimiter: delimiter) }.joined(separator: String(delimiter))
    }

    /// One field, quoted when it must be.
    public static func field(_ text: String, delimiter: Character) -> String {
        let must = text.contains { $0 == delimiter || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard must else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// How a value reads in a cell: text as it is, null empty, numbers and booleans as JSON
    /// writes them, lists and records as compact JSON.
    public static func cell(_ value: Value?) -> String {
        switch value {
        case nil, .null?: return ""
        case .string(let s)?: return s
        case let v?: return JSONWriter.compact(v)
        }
    }
}
