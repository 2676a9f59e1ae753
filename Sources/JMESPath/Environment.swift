// What an evaluation carries besides the current value: the value the search started from (`$`)
// and the variables of the enclosing `let`s.

/// The context of one evaluation: `$` and the values bound by the enclosing `let`s.
///
/// Variables are resolved when the expression is compiled: a `$name` refers to a slot, numbered
/// from the outermost `let` in, and a `let` appends its bindings after the slots of the `let`s
/// around it. Since a `let`'s body is only ever evaluated inside that `let`, the slots in use
/// are always exactly those of the enclosing `let`s.
///
/// The values are held as `Any` (they are always the host's type): the interpreter is generic
/// over the host's value, and a context generic over it too would have its type looked up at
/// every step of every search. Two arrays are two words, passed in registers at every step, and
/// empty ones cost nothing: `$` is kept only by an expression that reads it.
struct Environment {
    /// The value the search started from, when the expression reads it (else empty).
    let root: [Any]
    /// The bound values, by slot.
    var variables: [Any] = []
}
