// What the expression tests of this target share: an expression searched on a document, or the
// kind of error it gives.
import VowValue
import XCTest

@testable import JMESPath

extension XCTestCase {
    /// `expression` searched on `document`.
    func search(_ expression: String, _ document: Value = .null) throws -> Value {
        try JMESPathExpression(expression).search(document)
    }

    /// The kind of error `expression` gives on `document`, compiling or searching; nil when it gives none.
    func kind(_ expression: String, _ document: Value = .null) -> JMESPathError.Kind? {
        do throws(JMESPathError) {
            _ = try JMESPathExpression(expression).search(document)
            return nil
        } catch {
            return error.kind
        }
    }
}
