import Foundation
import SigilDER
import SigilX509
import XCTest

/// Every certificate of the machine's trust store must parse.
final class SystemRootsTests: XCTestCase {
    func testEverySystemRootParses() throws {
        let files = TestSupport.systemRootFiles()
        guard !files.isEmpty else {
            print("SKIPPED: no system roots in /etc/ssl/certs on this machine")
            return
        }
        var count = 0
        for file in files {
            let bytes = try TestSupport.read(file)
            do {
                let certs = try Certificate.all(from: bytes)
                count += certs.count
            } catch {
                XCTFail("\(file): \(error)")
            }
        }
        print("parsed \(count) system root certificates from \(files.count) files")
        XCTAssertGreaterThan(count, 50)
    }
}
