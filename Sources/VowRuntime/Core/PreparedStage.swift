import VowValue

/// A pure stage's work on one input with arguments that never change (`pick @`, `pick user.name`),
/// made once for a stage run directly on many inputs (`PureStage`): what the stage's `run` does
/// with those arguments, without reading them again for each input (`pick` compiles its
/// expression once, where `run` looked it up by its text every time).
///
/// A class, so that a direct form keeps one reference. Used only on the session executor, as the
/// direct form is.
public protocol PreparedStage: AnyObject, Sendable {
    /// The stage's value on `input`, or nil when the stage is to run as it always does on it
    /// (`ValueStage.run`): when it would throw, so that its error is its run's, or when `input`
    /// is one it reads in a way of its own (text, a response).
    func value(_ input: Value) -> Value?
}
