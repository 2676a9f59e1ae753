// testdata/clock-server.py, started by a test: an HTTP server that keeps each request's arrival
// time by its own clock (rate limits are measured with it).
import Foundation

/// A running clock server: its process and `http://127.0.0.1:PORT`.
struct ClockServer {
    let process: Process
    let base: String

    /// Starts the server (`script`, a server of testdata/ that prints its port) and waits for
    /// its port.
    static func start(_ script: String = "testdata/clock-server.py") throws -> ClockServer {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", projectRoot.appendingPathComponent(script).path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return ClockServer(process: p, base: "http://127.0.0.1:\(port)")
    }

    /// Stops the server.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
