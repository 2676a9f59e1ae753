// Serves the test fixture routes on 127.0.0.1 until stdin closes; prints the port first.
// `/bench.json` is a 1 KB JSON document.
import Foundation
import TestSupport

let server = try FixtureServer.start()
print(server.port)
fflush(nil)
_ = FileHandle.standardInput.readDataToEndOfFile()
server.shutdown()
