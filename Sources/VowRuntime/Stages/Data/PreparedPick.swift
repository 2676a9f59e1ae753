import JMESPath
import VowValue

/// `pick EXPR` with EXPR compiled once (`PreparedStage`): a search of each input with it, where
/// `PickStage.run` took the expression's text and found it in the cache of compiled expressions
/// every time. Text, a response and a value `json` picked ahead of time are left to `run`, which
/// reads each as `pick` does (the JSON it holds, its body).
final class PreparedPick: PreparedStage {
    private let expression: JMESPathExpression

    init(_ expression: JMESPathExpression) {
        self.expression = expression
    }

    func value(_ input: Value) -> Value? {
        switch input {
        case .string, .response, .opaque: return nil
        case .list(let items):
            // A list of responses is searched as the list of their bodies (`Pick.body`).
            if case .response? = items.first { return nil }
        default: break
        }
        return try? expression.search(input)
    }
}
