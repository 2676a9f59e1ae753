import VowValue

/// A flag a stage accepts.
public struct FlagSpec: Sendable {
    /// The name without dashes, e.g. `limit`.
    public let name: String
    /// The value's placeholder (`N`, `D`, `K:V`), or nil for a switch that takes no value.
    public let value: String?
    /// True when the flag may be given more than once (`--header`).
    public let repeatable: Bool
    /// One line of help.
    public let help: String

    /// For a switch that may name one of a few words after it (`--stream` or `--stream lines`):
    /// the words. The word is the flag's value; without one the flag is `true`.
    public let choices: [String]
    /// Declares a flag.
    public init(_ name: String, value: String? = nil, repeatable: Bool = false, choices: [String] = [], help: String) {
        self.name = name
        self.value = value
        self.repeatable = repeatable
        self.choices = choices
        self.help = help
    }
}

/// A flag declared once, with the type of its value: the stage lists it in its `flags` (as
/// `spec`) and reads its value through it (`args.value(Self.limit)`, `args[Self.pretty]`), so a
/// flag is named in one place and a misspelt flag does not compile.
struct Flag<T: Sendable>: Sendable {
    /// What `:help`, the planner and completion read.
    let spec: FlagSpec
    /// Turns the flag's value into `T`, or throws a type error naming the flag.
    let convert: @Sendable (Value, StageArguments) throws -> T

    /// The name without dashes.
    var name: String { spec.name }
    /// `--name`, as messages write it.
    var written: String { "--" + spec.name }

    /// A flag whose value `convert` makes a `T`.
    init(_ spec: FlagSpec, convert: @escaping @Sendable (Value, StageArguments) throws -> T) {
        self.spec = spec
        self.convert = convert
    }
}

extension Flag where T == Bool {
    /// A switch: given or not (`--pretty`).
    static func `switch`(_ name: String, help: String) -> Flag<Bool> {
        Flag(FlagSpec(name, help: help)) { _, _ in true }
    }
}

extension Flag where T == Value {
    /// A flag whose value is taken as it is (a record of headers, a list of columns…); with
    /// `choices`, a switch that may name one of a few words after it.
    static func value(_ name: String, value: String? = nil, repeatable: Bool = false, choices: [String] = [], help: String) -> Flag<Value> {
        Flag(FlagSpec(name, value: value, repeatable: repeatable, choices: choices, help: help)) { v, _ in v }
    }
}

extension Flag where T == String {
    /// A flag whose value is text (numbers are turned into text).
    static func text(_ name: String, value: String, help: String) -> Flag<String> {
        Flag(FlagSpec(name, value: value, help: help)) { v, args in try args.asString(v, "--" + name) }
    }
}

extension Flag where T == Int {
    /// A flag whose value is a whole number.
    static func integer(_ name: String, value: String = "N", help: String) -> Flag<Int> {
        Flag(FlagSpec(name, value: value, help: help)) { v, args in try args.integer(v, "--" + name) }
    }
}

extension Flag where T == Double {
    /// A flag whose value is a duration in seconds (`250ms`, `2s`, a number).
    static func duration(_ name: String, value: String = "D", help: String) -> Flag<Double> {
        Flag(FlagSpec(name, value: value, help: help)) { v, args in try args.seconds(v, "--" + name) }
    }
}

extension StageArguments {
    /// True when the switch (or flag) was given.
    subscript(_ flag: Flag<Bool>) -> Bool { flags[flag.name] != nil }

    /// True when the flag was given, whatever its type.
    func given<T>(_ flag: Flag<T>) -> Bool { flags[flag.name] != nil }

    /// The value of the flag (the last one given), or nil when it is not given.
    func value<T>(_ flag: Flag<T>) throws -> T? {
        guard let v = flags[flag.name]?.last else { return nil }
        return try pointing(at: flagSpan(flag.name)) { try flag.convert(v, self) }
    }

    /// Every value of a repeatable flag, in order.
    func values<T>(_ flag: Flag<T>) throws -> [T] {
        try (flags[flag.name] ?? []).enumerated().map { i, v in
            try pointing(at: flagSpan(flag.name, at: i)) { try flag.convert(v, self) }
        }
    }
}

extension StageCall {
    /// True when the flag was given.
    func given<T>(_ flag: Flag<T>) -> Bool { flagNodes[flag.name] != nil }

    /// The value of `flag` (the last one given) as a plain value, evaluated with no input (a
    /// pipeline there is refused, as `plain` refuses it), or nil when it is not given: for the
    /// stages that read their arguments themselves (`retry`, `until`).
    func plain<T>(_ flag: Flag<T>) throws -> T? {
        guard let node = flagNodes[flag.name]?.last, let node else { return nil }
        let args = StageArguments(positional: [], flags: [:], stage: name)
        return try args.pointing(at: node.span.start..<node.span.end) { try flag.convert(try plain(node), args) }
    }

    /// The whole number given with `flag` (the last one, evaluated against `input`; a pipeline
    /// there is refused and cancelled), or `defaultValue` when the flag is absent. Below
    /// `minimum` is a type error naming the flag.
    func integer(_ flag: Flag<Int>, default defaultValue: Int, minimum: Int, input: Value) throws -> Int {
        guard let node = flagNodes[flag.name]?.last ?? nil else { return defaultValue }
        let v = try Evaluator(session: session).plainArgument(
            node, input: input, scope: scope, site: site, problem: "\(name): \(flag.written) must be a plain value")
        let args = StageArguments(positional: [], flags: [:], stage: name)
        return try args.pointing(at: node.span.start..<node.span.end) {
            let n = try flag.convert(v, args)
            guard n >= minimum else { throw VowError(.type, "\(name): \(flag.written) must be at least \(minimum)") }
            return n
        }
    }
}
