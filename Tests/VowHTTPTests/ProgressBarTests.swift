import XCTest

@testable import VowHTTP
import VowValue

/// The download progress bar's sizes, and the clock it writes times left with.
final class ProgressBarTests: XCTestCase {
    func test_progressFormatting() {
        XCTAssertEqual(ProgressBar.size(812), "812 B")
        XCTAssertEqual(ProgressBar.size(1_400_000), "1.4 MB")
        XCTAssertEqual(TimeText.clock(7), "0:07")
        XCTAssertEqual(TimeText.clock(3723), "1:02:03")
    }
}
