// The lexer reads an ASCII expression from its bytes and any other from its characters: both
// give the same tokens, and offsets count characters.
import XCTest

@testable import JMESPath

final class LexerTests: XCTestCase {
    /// The kinds of an expression's tokens, as text, with their offsets.
    func tokens(_ source: String) throws -> [String] {
        try Lexer.tokenize(source).map { "\($0.kind.display)@\($0.offset)" }
    }

    func test_bytesAndCharactersGiveTheSameTokens() throws {
        // Each expression beside the same with a non-ASCII character in a raw string at its end,
        // which makes the lexer read characters: the tokens before it are the same.
        let expressions = [
            "a.b[0][-1].c", "x0.x1.x22", "[?a >= `1` && b != 'x'] | sort(@)", "$.a || !b", "let $v = a in $v",
            "a // b % c / d * e + f - g", "{k: a, l: [b, c]}", "&a", "a[1:2:-1]", "\"quoted\".b", "@[] ? a : b",
        ]
        for e in expressions {
            let plain = try tokens(e)
            let mixed = try tokens(e + " | 'é'")
            XCTAssertEqual(Array(mixed.prefix(plain.count - 1)), Array(plain.dropLast()), e)
        }
    }

    /// A carriage return and line feed are one character: offsets after them count it once.
    func test_offsetsCountCharacters() throws {
        XCTAssertEqual(try tokens("a\r\n.b"), ["identifier 'a'@0", "'.'@2", "identifier 'b'@3", "the end of the expression@4"])
        XCTAssertEqual(try tokens("'é'.b").last, "the end of the expression@5")
        XCTAssertThrowsError(try JMESPathExpression("a.\r\n#")) { error in
            XCTAssertEqual((error as? JMESPathError)?.offset, 3)
        }
        XCTAssertThrowsError(try JMESPathExpression("a.#")) { error in
            XCTAssertEqual((error as? JMESPathError)?.offset, 2)
        }
        XCTAssertEqual(try tokens("a − b × c ÷ d").count, 8)
    }
}
