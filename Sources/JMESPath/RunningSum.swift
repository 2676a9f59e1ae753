// The sum of numbers as `sum` and `avg` add them, shared with a fold's (`ListFold`).

/// Numbers added in order as `sum` adds them: exact as an integer while every one is an integer
/// and no sum overflows, else the doubles' total; `avg` divides the doubles' total. One place
/// for the rule, so that a fold's sums are the functions' to the last bit.
struct RunningSum {
    private var intTotal = 0
    private var exact = true
    /// The doubles' total.
    private(set) var total = 0.0

    /// Adds a number (`e.jmesKind == .number`).
    mutating func add<V: JMESPathValue>(_ e: V) {
        total += e.jmesNumber ?? 0
        if exact, let i = e.jmesInt {
            let (s, overflow) = intTotal.addingReportingOverflow(i)
            if overflow { exact = false } else { intTotal = s }
        } else {
            exact = false
        }
    }

    /// The sum as `sum` gives it.
    var literal: Literal { exact ? .int(intTotal) : .double(total) }
}
