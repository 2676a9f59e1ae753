import Foundation
import XCTest

/// Every shell transcript the docs show (a ```console block: `$ vow …` and what it prints) runs
/// and prints what the page says, against the demo API (scripts/doc-transcripts starts it).
final class DocTranscriptTests: XCTestCase {
    /// The pages whose transcripts are run: the README's first screen, the tutorial, the cheat
    /// sheet, the "coming from" pages and the lessons' index.
    static let pages = [
        "README.md", "docs/tutorial.md", "docs/cheatsheet.md", "docs/coming-from-curl.md", "docs/coming-from-jq.md",
        "docs/coming-from-bash.md", "docs/coming-from-javascript.md", "examples/lessons/README.md", "docs/teaching.md",
    ]

    func test_everyTranscriptPrintsWhatThePageSays() throws {
        let root = projectRoot.path
        let pages = Self.pages.filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
        XCTAssertEqual(pages.count, Self.pages.count, "a page is missing")
        let r = try runWithInput("/usr/bin/env", ["python3", root + "/scripts/doc-transcripts", "--vow", REPLTests.binary] + pages.map { root + "/" + $0 }, input: "")
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertTrue(r.out.contains(" commands print what the page says"), r.out)
    }
}
