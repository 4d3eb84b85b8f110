import Foundation
import SigilTestSupport
@_spi(SigilInternal) import SigilX509
import XCTest

/// `GeneralNames.forEachHostName` (the walk the trust layer's name checks make over a leaf's
/// subjectAltName): the dNSName and iPAddress entries in encoding order, checked against Python
/// `cryptography`'s reading of every fixture certificate it parses (DNS names as text, IP
/// addresses as their packed octets).
final class HostNameWalkTests: XCTestCase {
    /// Each certificate's subjectAltName dNSName and iPAddress entries, in order, as ["dns", hex
    /// of the name's octets] / ["ip", hex of the packed address]; None without the extension.
    static let script = """
        try:
            san = c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        except x509.ExtensionNotFound:
            return None
        names = []
        for n in san:
            if isinstance(n, x509.DNSName):
                names.append(["dns", n.value.encode("latin-1").hex()])
            elif isinstance(n, x509.IPAddress):
                names.append(["ip", n.value.packed.hex()])
        return names
        """

    func testHostNamesAgreeWithPythonCryptography() throws {
        func hex(_ b: ArraySlice<UInt8>) -> String { b.map { String(format: "%02x", $0) }.joined() }
        var compared = 0
        var sawDNS = 0
        var sawIP = 0
        try forEachFixtureCertificate(readByPython: Self.script) { path, c, row in
            guard let sans = (try? c.subjectAlternativeNames()) ?? nil else { return }  // absent or malformed
            guard let names = row as? [[String]] else { return }
            var walked: [[String]] = []
            sans.forEachHostName { isDNSName, content in
                walked.append([isDNSName ? "dns" : "ip", hex(content.bytes)])
            }
            XCTAssertEqual(walked, names, path)
            sawDNS += walked.filter { $0[0] == "dns" }.count
            sawIP += walked.filter { $0[0] == "ip" }.count
            compared += 1
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(sawDNS, 50)
        XCTAssertGreaterThan(sawIP, 5)
    }
}
