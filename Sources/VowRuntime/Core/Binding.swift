import VowPromises
import VowValue

/// A variable's binding: `let` binds a promise; `def` parameters and script arguments bind values.
public enum Binding: Sendable {
    /// A promise bound by `let`, not its value: `$x` chains on it.
    case promise(Promise<Value>)
    /// A plain value.
    case value(Value)
}
