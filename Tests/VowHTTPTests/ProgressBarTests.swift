import XCTest

@testable import VowHTTP

/// The download progress bar's sizes and times.
final class ProgressBarTests: XCTestCase {
    func test_progressFormatting() {
        XCTAssertEqual(ProgressBar.size(812), "812 B")
        XCTAssertEqual(ProgressBar.size(1_400_000), "1.4 MB")
        XCTAssertEqual(ProgressBar.clock(7), "0:07")
        XCTAssertEqual(ProgressBar.clock(3723), "1:02:03")
    }
}
