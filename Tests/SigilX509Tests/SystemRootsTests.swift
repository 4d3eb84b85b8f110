import Foundation
import SigilDER
import SigilTestSupport
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

final class SerialNumberRuleTests: XCTestCase {
    /// Serial 0 is tolerated (RFC 5280 §4.1.2.2 says positive) because real roots use it.
    func testZeroSerialRootParses() throws {
        let path = "/etc/ssl/certs/Go_Daddy_Class_2_CA.pem"
        guard FileManager.default.fileExists(atPath: path) else {
            print("SKIPPED: \(path) absent")
            return
        }
        let cert = try Certificate.all(from: try TestSupport.read(path))[0]
        XCTAssertEqual(Array(cert.serialNumber.bytes), [0x00])
        XCTAssertEqual(cert.serialNumberHex, "0")
    }
}
