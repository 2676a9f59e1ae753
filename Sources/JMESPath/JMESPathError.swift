// Errors raised while compiling or evaluating an expression.

/// A JMESPath error, with the name the specification gives its kind.
///
/// Compile errors (`syntax`, `unknown-function`, `invalid-arity`) carry the character offset in
/// the expression so that a host can draw a caret under the culprit; evaluation errors
/// (`invalid-type`, `invalid-value`, `not-a-number`, `undefined-variable`) depend on the data
/// and carry no offset.
public struct JMESPathError: Error, Sendable, CustomStringConvertible {
    /// The specification's error kinds; the raw values are the names the compliance suite uses.
    public enum Kind: String, Sendable {
        /// The expression does not parse.
        case syntax
        /// A function got the wrong number of arguments.
        case invalidArity = "invalid-arity"
        /// A function got an argument of the wrong type.
        case invalidType = "invalid-type"
        /// An argument had a value the operation cannot use (e.g. a slice step of 0).
        case invalidValue = "invalid-value"
        /// The expression calls a function that does not exist.
        case unknownFunction = "unknown-function"
        /// An arithmetic operator got something other than numbers, divided by zero, or overflowed.
        case notANumber = "not-a-number"
        /// A `$name` that no enclosing `let` binds was evaluated.
        case undefinedVariable = "undefined-variable"
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// Says what was wrong and what was expected.
    public let message: String
    /// Character offset in the expression (for a caret), for errors found while compiling.
    public let offset: Int?

    /// Makes an error; `offset` counts characters from the start of the expression.
    public init(kind: Kind, message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// `kind: message`, with ` (at offset N)` when the position is known.
    public var description: String {
        if let offset { return "\(kind.rawValue): \(message) (at offset \(offset))" }
        return "\(kind.rawValue): \(message)"
    }
}
