// The registry's table of names (`StageNameTable`) finds what a dictionary of the same entries
// finds: every built-in name and alias, and nothing for names near them. Generated, seeded:
// names cut, lengthened, recased and given other bytes (non-ASCII among them), and tables of
// thousands of made-up names, where probing past a taken slot is the rule.
import VowValue
import XCTest

@testable import VowRuntime

final class StageNameTableTests: XCTestCase {
    private func dictionary(_ entries: [(name: String, stage: any StageDefinition.Type)]) -> [String: any StageDefinition.Type] {
        var d: [String: any StageDefinition.Type] = [:]
        for (name, stage) in entries { d[name] = stage }
        return d
    }

    private func same(_ a: (any StageDefinition.Type)?, _ b: (any StageDefinition.Type)?) -> Bool {
        a.map(ObjectIdentifier.init) == b.map(ObjectIdentifier.init)
    }

    func test_theBuiltInNamesAndNamesNearThem() {
        let stages = StageRegistry.builtins.stages
        let entries = stages.flatMap { s in [(name: s.name, stage: s)] + s.aliases.map { (name: $0, stage: s) } }
        let table = StageNameTable(entries)
        let dict = dictionary(entries)
        for (name, _) in entries { XCTAssertTrue(same(table[name], dict[name]), name) }
        var rng = SplitMix64(seed: 21)
        let extra: [String] = ["", " ", "é", "pické", "日本", "\u{0}", "PICK", "vow-x"]
        var probes = 0
        for _ in 0..<20_000 {
            var name = entries[Int.random(in: 0..<entries.count, using: &rng)].name
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: name = String(name.dropLast(Int.random(in: 0...name.count, using: &rng)))
            case 1: name += String(UnicodeScalar(UInt8.random(in: 32...126, using: &rng)))
            case 2: name = name.uppercased()
            case 3: name = extra[Int.random(in: 0..<extra.count, using: &rng)] + name
            case 4: name = String(name.reversed())
            default: break
            }
            XCTAssertTrue(same(table[name], dict[name]), name)
            probes += 1
        }
        XCTAssertEqual(probes, 20_000)
        XCTAssertNotNil(table["pick"])
        XCTAssertNil(table["pick2"])
    }

    func test_manyNamesAndALaterEntryForAName() {
        var rng = SplitMix64(seed: 22)
        let kinds = StageRegistry.builtins.stages
        for size in [0, 1, 5, 300, 5_000] {
            var entries: [(name: String, stage: any StageDefinition.Type)] = []
            for _ in 0..<size {
                let length = Int.random(in: 0...24, using: &rng)
                let name = String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...102, using: &rng))) })
                entries.append((name, kinds[Int.random(in: 0..<kinds.count, using: &rng)]))
            }
            let table = StageNameTable(entries)
            let dict = dictionary(entries)
            for (name, _) in entries { XCTAssertTrue(same(table[name], dict[name]), name) }
            for _ in 0..<2_000 {
                let length = Int.random(in: 0...24, using: &rng)
                let name = String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...103, using: &rng))) })
                XCTAssertTrue(same(table[name], dict[name]), name)
            }
        }
    }
}
