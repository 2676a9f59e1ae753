import JMESPath
import VowSyntax
import VowValue

/// The `pick` that follows a `json` stage, when its expression is literal text.
struct PickAhead: Sendable {
    /// The expression as `pick` will see it.
    let expression: String
    /// Its steps, when it is a path of fields and indexes: `json` finds the value itself.
    let path: [JMESPathStep]?
    /// `path` made ready for the scan once (`JSONPathQuery(path:)`), not for each document.
    let pathQuery: JSONPathQuery?
    /// Its paths, when it is a multiselect of simple paths (`{s: status, t: total}`): `json`
    /// finds each path's value itself and makes the record or list of them.
    let selection: JSONPathQuery?
    /// For `each json | pick EXPR` over a stream: what EXPR reads of each item's document
    /// (`JMESPathExpression.elementDemand`), all that the list's tape keeps of each; nil: whole.
    var elementDemand: JMESPathDemand?

    /// The lookahead for `plan` when it is `json` and `next` is `pick` with a literal expression.
    init?(_ plan: StagePlan, next: StagePlan) {
        guard case .builtin(_, let positional) = plan.kind, plan.flags.isEmpty,
            case .builtin(let nextDef, let arguments) = next.kind, nextDef == PickStage.self,
            next.flags.isEmpty, arguments.count == 1, positional.isEmpty, !next.isHandler,
            let text = Self.literal(arguments[0]),
            let compiled = try? JMESPathExpression.cached(text)
        else { return nil }
        self.expression = text
        self.path = compiled.simplePath
        self.pathQuery = compiled.simplePath.map { JSONPathQuery(path: $0) }
        self.selection = compiled.simpleSelection.map(JSONPathQuery.init)
    }

    /// EXPR, when `next` is `pick EXPR` with a literal EXPR that reads its list only through
    /// aggregates a fold computes (`ListFold`): what `each` before it folds its results into
    /// (`StagePlan.foldAhead`), through a `where` or not.
    static func folded(_ next: StagePlan) -> String? {
        guard case .builtin(let nextDef, let arguments) = next.kind, nextDef == PickStage.self, next.flags.isEmpty,
            arguments.count == 1, !next.isHandler, let text = literal(arguments[0]),
            let compiled = try? JMESPathExpression.cached(text), ListFold.folds(compiled)
        else { return nil }
        return text
    }

    /// The text of an argument written as plain text (a word or a string with nothing to
    /// interpolate), or nil.
    static func literal(_ argument: Argument) -> String? {
        switch argument.kind {
        case .word(let t), .string(let t): return t.literalText
        case .rawString(let s): return s
        default: return nil
        }
    }
}
