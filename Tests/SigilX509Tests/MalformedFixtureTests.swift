import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

/// Each sample in `Fixtures/malformed/` (one defect in an otherwise valid certificate, made by
/// `Fixtures/scripts/gen_malformed.py`) must be refused with the kind and offset its manifest
/// states.
final class MalformedFixtureTests: XCTestCase {
    struct Sample: Decodable {
        let file: String
        let kind: String
        let offset: Int
        let description: String
    }

    func testEveryMalformedSampleGivesItsError() throws {
        let dir = TestSupport.fixtures.appendingPathComponent("malformed")
        let data = try Data(contentsOf: dir.appendingPathComponent("manifest.json"))
        let samples = try JSONDecoder().decode([Sample].self, from: data)
        XCTAssertGreaterThan(samples.count, 30)
        var kindsSeen = Set<String>()
        for s in samples {
            let bytes = try TestSupport.read(dir.appendingPathComponent(s.file).path)
            do {
                let cert = try Certificate(der: bytes)
                // Extension-value defects surface when the extensions are decoded.
                try cert.validateExtensions()
                XCTFail("\(s.file) parsed but should fail with \(s.kind) at \(s.offset): \(s.description)")
            } catch let error as DERError {
                XCTAssertEqual("\(error.kind)", s.kind, "\(s.file): \(s.description)")
                XCTAssertEqual(error.offset, s.offset, "\(s.file): \(s.description)")
                kindsSeen.insert(s.kind)
            }
        }
        print("\(samples.count) malformed samples, \(kindsSeen.count) error kinds")
    }
}
