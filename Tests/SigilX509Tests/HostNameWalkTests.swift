import Foundation
import SigilTestSupport
@_spi(SigilInternal) import SigilX509
import XCTest

/// `GeneralNames.forEachHostName` (the walk the trust layer's name checks make over a leaf's
/// subjectAltName): the dNSName and iPAddress entries in encoding order, checked against Python
/// `cryptography`'s reading of every fixture certificate it parses (DNS names as text, IP
/// addresses as their packed octets).
final class HostNameWalkTests: XCTestCase {
    static let script = """
        import json, sys, ipaddress
        from cryptography import x509
        out = {}
        for path in sys.argv[1:]:
            data = open(path, "rb").read()
            try:
                certs = x509.load_pem_x509_certificates(data) if b"-----BEGIN" in data else [x509.load_der_x509_certificate(data)]
                row = []
                for c in certs:
                    try:
                        san = c.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
                    except x509.ExtensionNotFound:
                        row.append(None)
                        continue
                    names = []
                    for n in san:
                        if isinstance(n, x509.DNSName):
                            names.append(["dns", n.value.encode("latin-1").hex()])
                        elif isinstance(n, x509.IPAddress):
                            v = n.value
                            b = v.packed if not isinstance(v, (ipaddress.IPv4Network, ipaddress.IPv6Network)) else v.network_address.packed + v.netmask.packed
                            names.append(["ip", b.hex()])
                    row.append(names)
                out[path] = row
            except Exception:
                pass
        print(json.dumps(out))
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
