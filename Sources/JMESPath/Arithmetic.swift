// Arithmetic: `+ - * / // %` and unary `-` and `+`, on numbers only.
//
// Integers stay integers where the result is one and fits (`+`, `-`, `*`, `//`, `%` of two
// integers); `/` always gives a double, as the reference implementation's true division does.
// Anything that is not a number, a division by zero and a result too large for a double are
// `not-a-number` errors.

/// `a op b`.
func applyArithmetic<V: JMESPathValue>(_ op: ArithmeticOperator, _ a: V, _ b: V) throws(JMESPathError) -> V {
    guard a.jmesKind == .number, b.jmesKind == .number else {
        throw JMESPathError(
            kind: .notANumber, message: "'\(op.symbol)' takes two numbers, got \(kindName(a)) and \(kindName(b))")
    }
    if let x = a.jmesInt, let y = b.jmesInt, let exact: V = integerArithmetic(op, x, y) { return exact }
    let x = a.jmesNumber ?? 0, y = b.jmesNumber ?? 0
    let r: Double
    switch op {
    case .add: r = x + y
    case .subtract: r = x - y
    case .multiply: r = x * y
    case .divide, .intDivide, .modulo:
        guard y != 0 else { throw JMESPathError(kind: .notANumber, message: "'\(op.symbol)' by zero") }
        switch op {
        case .divide: r = x / y
        case .intDivide: r = (x / y).rounded(.down)
        default: r = flooredRemainder(x, y)
        }
    }
    guard r.isFinite else {
        throw JMESPathError(kind: .notANumber, message: "'\(op.symbol)' overflows: the result is too large for a number")
    }
    return op == .intDivide ? integral(r) : .jmesDouble(r)
}

/// `-a` (`.subtract`) or `+a` (`.add`).
func applyUnary<V: JMESPathValue>(_ op: ArithmeticOperator, _ a: V) throws(JMESPathError) -> V {
    guard a.jmesKind == .number else {
        throw JMESPathError(kind: .notANumber, message: "unary '\(op.symbol)' takes a number, got \(kindName(a))")
    }
    if op == .add { return a }
    if let i = a.jmesInt, i != Int.min { return .jmesInt(-i) }
    return .jmesDouble(-(a.jmesNumber ?? 0))
}

/// The exact result of an integer operation, or nil when it is not an integer that fits (then
/// the operation is done on doubles). Division by zero is an error.
func integerArithmetic<V: JMESPathValue>(_ op: ArithmeticOperator, _ x: Int, _ y: Int) -> V? {
    let r: (partialValue: Int, overflow: Bool)
    switch op {
    case .add: r = x.addingReportingOverflow(y)
    case .subtract: r = x.subtractingReportingOverflow(y)
    case .multiply: r = x.multipliedReportingOverflow(by: y)
    case .divide: return nil
    case .intDivide:
        guard y != 0 else { return nil }
        let q = x.dividedReportingOverflow(by: y)
        if q.overflow { return nil }
        // Rounded down, not towards zero: -7 // 2 is -4.
        let m = x.remainderReportingOverflow(dividingBy: y).partialValue
        r = (q.partialValue - (m != 0 && (m < 0) != (y < 0) ? 1 : 0), false)
    case .modulo:
        guard y != 0 else { return nil }
        let m = x.remainderReportingOverflow(dividingBy: y).partialValue
        r = (m != 0 && (m < 0) != (y < 0) ? m + y : m, false)
    }
    return r.overflow ? nil : .jmesInt(r.partialValue)
}

/// The remainder with the sign of the divisor (as Python's `%`): C's `fmod`, then `y` added
/// when the signs differ. `-7 % 3` is 2, `7 % -3` is -2.
func flooredRemainder(_ x: Double, _ y: Double) -> Double {
    let m = x.truncatingRemainder(dividingBy: y)
    return m != 0 && (m < 0) != (y < 0) ? m + y : m
}

/// An integer when `d` is integral and fits, otherwise a double.
func integral<V: JMESPathValue>(_ d: Double) -> V {
    if d.isFinite, d >= -9.223372036854775e18, d <= 9.223372036854775e18, d == d.rounded() { return .jmesInt(Int(d)) }
    return .jmesDouble(d)
}

/// The JSON type of `v` with its article, for error messages.
func kindName<V: JMESPathValue>(_ v: V) -> String {
    switch v.jmesKind {
    case .null: return "null"
    case .boolean: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
}
