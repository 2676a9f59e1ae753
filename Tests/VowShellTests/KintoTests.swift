import Foundation
import TestSupport
import XCTest

@testable import VowShell

/// The tasks of an API user against Kinto itself (from PyPI, in .build/kinto-venv, which
/// scripts/setup makes; memory backend, a port of its own): its Swagger 2.0 description read
/// from the server, operations called by operationId, paging, filters, If-Match and a batch,
/// each checked against what curl gets from the same server.
final class KintoTests: XCTestCase {
    var process: Process?
    var base = ""
    var config = ""

    override func setUpWithError() throws {
        let kinto = projectRoot.appendingPathComponent(".build/kinto-venv/bin/kinto").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: kinto), "no Kinto at \(kinto): scripts/setup makes it")
        config = FileManager.default.temporaryDirectory.appendingPathComponent("vow-kinto-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let ini = config + "/kinto.ini"
        _ = try runCommand(kinto, ["init", "--ini", ini, "--backend", "memory", "--cache-backend", "memory"])
        let port = freeLocalPort()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kinto)
        p.arguments = ["start", "--ini", ini, "--port", String(port)]
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        process = p
        base = "http://127.0.0.1:\(port)/v1"
        // Up when it answers; it takes a few seconds to start.
        for _ in 0..<150 {
            if let r = try? runCommand("curl", ["-sf", base + "/"]), r.status == 0 { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("Kinto did not start on \(base)")
    }

    override func tearDown() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: config)
    }

    func vow(_ program: String) throws -> (out: String, err: String, status: Int32) {
        let r = try runWithInput("/usr/bin/env", ["XDG_CONFIG_HOME=\(config)", REPLTests.binary, "-c", program], input: "")
        return (r.out, r.err, r.status)
    }

    func curl(_ args: [String]) throws -> String { try runCommand("curl", ["-s", "-u", "admin:s3cret"] + args).out }

    func test_theTasksOfAnAPIUserByOperationId() throws {
        // An account, then the API with its description from the server itself.
        XCTAssertEqual(try vow("put \(base)/accounts/admin --json {data: {password: s3cret}} | json | pick data.id").out, "admin\n")
        let added = try vow("fetch \(base)/__api__ | api add kinto \(base) --auth admin:s3cret --openapi - | pick description.format")
        XCTAssertEqual(added.out, "2.0\n", added.err)
        // Or found where Kinto keeps it.
        XCTAssertEqual(try vow("api add found \(base) --discover --no-save | pick description.url").out, base + "/__api__\n")
        XCTAssertEqual(try vow("api show kinto | pick \"[?operationId == 'get_records'].path | [0]\"").out, "/buckets/{bucket_id}/collections/{collection_id}/records\n")
        // Create a bucket, a collection and 30 records, 4 at a time.
        let made = try vow("""
            op kinto.create_bucket --json {data: {id: shop}} | quiet
            op kinto.create_collection shop --json {data: {id: orders}} | quiet
            echo (range 1 30) | each (op kinto.create_record shop orders --json {data: {n: $_, status: (if '@ % `2` == `0`' paid else open)}}) --limit 4 | len
            """)
        XCTAssertEqual(made.out, "30\n", made.err)
        // A page, sorted; every page (Next-Page); a filter: as curl and jq see them.
        XCTAssertEqual(try vow("op kinto.get_records shop orders --query {_limit: 5, _sort: n} | json | pick 'data[*].n' | to-json").out, "[1,2,3,4,5]\n")
        // Kinto's answers fit its own description.
        XCTAssertEqual(try vow("op kinto.get_bucket shop --validate | json | pick data.id").out, "shop\n")
        XCTAssertEqual(try vow("paginate kinto/buckets/shop/collections/orders/records --query {_limit: 7} --next-header Next-Page --items data | len").out, "30\n")
        let paid = try vow("op kinto.get_records shop orders --status paid | json | pick 'length(data)'").out
        let curlPaid = try curl(["\(base)/buckets/shop/collections/orders/records?status=paid"])
        XCTAssertEqual(paid, "15\n")
        let curlRecords = (try JSONSerialization.jsonObject(with: Data(curlPaid.utf8)) as? [String: Any])?["data"] as? [Any]
        XCTAssertEqual(curlRecords?.count, 15, curlPaid)
        // If-Match: the first update with the collection's ETag passes, the second (stale) gets 412.
        let conditional = try vow("""
            let r = op kinto.get_collection shop orders
            op kinto.patch_collection shop orders --json {data: {note: first}} --if-match $r | status
            op kinto.patch_collection shop orders --json {data: {note: second}} --if-match $r | catch pick status
            """)
        XCTAssertEqual(conditional.out, "200\n412\n", conditional.err)
        // A batch of two creations. Kinto's description requires each request's path, where the
        // server takes it from `defaults` too: checked, that is refused; --no-check sends it.
        let records = "/buckets/shop/collections/orders/records"
        let batch = try vow("op kinto.batch --json {requests: [{method: POST, path: \(records), body: {data: {n: 100}}}, {method: POST, path: \(records), body: {data: {n: 101}}}]} | json | pick 'responses[*].status' | to-json")
        XCTAssertEqual(batch.out, "[201,201]\n", batch.err)
        let defaults = "op kinto.batch --json {defaults: {method: POST, path: \(records)}, requests: [{body: {data: {n: 102}}}]}"
        let refused = try vow(defaults)
        XCTAssertTrue(refused.err.contains("requests[0]: the field path is missing (required); nothing was sent (--no-check sends it all the same)"), refused.err)
        XCTAssertEqual(try vow(defaults + " --no-check | json | pick 'responses[*].status' | to-json").out, "[201]\n")
        XCTAssertTrue(try curl(["\(base)/buckets/shop/collections/orders/records?n=101"]).contains("\"n\":101"))
    }
}
