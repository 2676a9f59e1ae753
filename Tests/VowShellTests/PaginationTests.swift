import Foundation
import TestSupport
import XCTest

@testable import VowRuntime

/// `paginate` and `iterate` against a paged API on the fixture server (3 pages of 3 items, with a
/// Link header, a next URL in the body and a cursor), and the Link header parser.
final class PaginationTests: ServerTestCase {
    func test_linkHeadersAreFollowedByDefault() {
        assertOutput("paginate $base/pages/1 --items items | len", "9")
        assertOutput("paginate $base/pages/2 --items 'items[].id' | to-json", "[4,5,6,7,8,9]")
        // Without --items each page is one item (it is a record, not a list).
        assertOutput("paginate $base/pages/1 | pick '[*].page' | to-json", "[1,2,3]")
    }

    func test_nextURLInTheBodyIsResolvedAgainstThePage() {
        // The body's next is relative (/pages/2): resolved against the page's URL.
        assertOutput("paginate $base/pages/1 --next next --items 'items[].id' | to-json", "[1,2,3,4,5,6,7,8,9]")
    }

    func test_cursorIsSentAsTheNamedQueryParameter() {
        assertOutput("paginate $base/pages --cursor cursor --param after --items 'items[].id' | to-json", "[1,2,3,4,5,6,7,8,9]")
    }

    /// Kinto names the next page in a `Next-Page` header: `--next-header` follows it, `--next`
    /// reads it through `$response.headers`, and a walk that ignores it says so.
    func test_aNextPageHeaderIsFollowedAndNeverSilentlyIgnored() {
        assertOutput("paginate $base/records --next-header Next-Page --items 'data[].id' | to-json", "[1,2,3,4,5,6,7,8,9]")
        assertOutput("paginate $base/records --next '$response.headers.\"next-page\"' --items 'data[].id' | to-json", "[1,2,3,4,5,6,7,8,9]")
        // The default (Link) finds no next page: the items of page 1, and a warning with the counts.
        let r = vow("paginate $base/records --items data | len")
        XCTAssertEqual(r.out, "3\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(
            r.err.contains("warning: paginate ended after 1 page with 3 items, but the server's Total-Records says 9; it names the next page in a Next-Page header: --next-header Next-Page follows it"),
            r.err)
        // A walk that gathered everything says nothing.
        XCTAssertEqual(vow("paginate $base/records --next-header Next-Page --items data | len").err, "")
        let both = vow("paginate $base/records --next next --next-header Next-Page")
        XCTAssertEqual(both.status, 1)
        XCTAssertTrue(both.err.contains("give one of --next, --next-header and --cursor"), both.err)
    }

    func test_maxPagesStopsTheWalk() {
        let before = Self.server.hits("/pages/3")
        assertOutput("paginate $base/pages/1 --items 'items[].id' --max-pages 2 | to-json", "[1,2,3,4,5,6]")
        XCTAssertEqual(Self.server.hits("/pages/3"), before, "page 3 was requested despite --max-pages 2")
    }

    func test_everyPageGetsTheHTTPFlags() {
        // Every page answers 401 without credentials: the walk only succeeds if each request has them.
        assertOutput(#"paginate "$base/pages/1?needs=auth" --bearer t0k --items 'items[].id' | to-json"#, "[1,2,3,4,5,6,7,8,9]")
        let r = vow(#"paginate "$base/pages/1?needs=auth" --items items"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("error[http]: 401"), r.err)
        XCTAssertTrue(r.err.contains("page 1 of paginate"), r.err)
    }

    func test_anotherOriginIsRefusedUnlessAsked() {
        let before = Self.server.hits("/pages/2")
        let r = vow(#"paginate "$base/pages/1?offsite=1" --items items"#)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("is on another origin"), r.err)
        XCTAssertTrue(r.err.contains("--cross-origin"), r.err)
        XCTAssertEqual(Self.server.hits("/pages/2"), before, "the other origin was requested")
        assertOutput(#"paginate "$base/pages/1?offsite=1" --items 'items[].id' --cross-origin | to-json"#, "[1,2,3,4,5,6,7,8,9]")
    }

    func test_badPagesAndBadFlagsAreNamed() {
        var r = vow("paginate $base/pages/9")
        XCTAssertTrue(r.err.contains("error[http]: 404") && r.err.contains("page 1 of paginate"), r.err)
        r = vow("paginate $base/invalid-json")
        XCTAssertTrue(r.err.contains("error[json]: page 1 (") && r.err.contains("not JSON"), r.err)
        r = vow("paginate $base/pages --cursor cursor")
        XCTAssertTrue(r.err.contains("--cursor needs --param"), r.err)
        r = vow("paginate $base/pages/1 --next page")
        XCTAssertTrue(r.err.contains("--next must pick a URL (text), got number"), r.err)
        r = vow("paginate $base/pages/1 --max-pages 0")
        XCTAssertTrue(r.err.contains("--max-pages must be at least 1"), r.err)
    }

    func test_iterateEndsWhenItsGroupMeetsNull() {
        // The pipeline a user writes: on the last page `pick next` is null, and the walk ends
        // there instead of fetching nothing.
        assertOutput(#"fetch $base/pages/1 | json | iterate (pick next | then fetch "$base{}" | json) | pick '[*].page' | to-json"#, "[2,3]")
        // Offline: without the rule the group would yield "reached" forever (up to --max).
        assertOutput("echo {next: {next: null}} | iterate (pick next | then pick next | then echo reached) | to-json", "[]")
        // A rejection that is not a null is still a rejection.
        let r = vow("echo {next: 1} | iterate (pick next | then fail boom)")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("boom"), r.err)
    }

    func test_linkHeaderParser() {
        let h = [(name: "link", value: #"<https://a.example/x?page=2>; rel="next last", <https://a.example/x?page=1>; rel=first"#)]
        XCTAssertEqual(LinkHeader.target(rel: "next", in: h), "https://a.example/x?page=2")
        XCTAssertEqual(LinkHeader.target(rel: "LAST", in: h), "https://a.example/x?page=2")
        XCTAssertEqual(LinkHeader.target(rel: "first", in: h), "https://a.example/x?page=1")
        XCTAssertNil(LinkHeader.target(rel: "prev", in: h))
        // A comma inside a quoted parameter does not end the link; several Link headers are read.
        let q = [(name: "Link", value: #"</a>; title="x, y"; rel="prev""#), (name: "Link", value: "</b>; rel=next")]
        XCTAssertEqual(LinkHeader.target(rel: "prev", in: q), "/a")
        XCTAssertEqual(LinkHeader.target(rel: "next", in: q), "/b")
        XCTAssertNil(LinkHeader.target(rel: "next", in: [(name: "Link", value: "garbage")]))
    }
}
