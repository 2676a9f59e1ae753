// :timeline draws what happened: a promise made already settled is drawn settled.
import XCTest

final class TimelineTests: XCTestCase {
    func test_nothingSettledIsDrawnPending() {
        for program in ["resolve 4 | then (print 0) | print\n:timeline", "echo x | catch pick message\n:timeline"] {
            let r = runVow(program)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertFalse(r.out.contains("pending"), r.out)
            XCTAssertTrue(r.out.contains("✓"), r.out)
        }
    }
}
