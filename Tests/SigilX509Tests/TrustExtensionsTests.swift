import Foundation
import SigilTestSupport
@_spi(SigilInternal) import SigilX509
import XCTest

/// Reads every fixture certificate file with Python `cryptography` — `entry` is the body of
/// `def entry(c):`, which returns a JSON value for the `x509.Certificate` `c`; a file it cannot
/// read or answer for is left out — and calls `body` with each certificate Sigil parses from a
/// file Python answered for, with Python's entry for it. Skips the test when python3 with
/// `cryptography` is not available.
func forEachFixtureCertificate(
    readByPython entry: String, _ body: (_ path: String, _ certificate: Certificate, _ entry: Any) throws -> Void
) throws {
    let script = """
        import json, sys
        from cryptography import x509
        def entry(c):
        \(entry.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        out = {}
        for path in sys.argv[1:]:
            data = open(path, "rb").read()
            try:
                certs = x509.load_pem_x509_certificates(data) if b"-----BEGIN" in data else [x509.load_der_x509_certificate(data)]
                out[path] = [entry(c) for c in certs]
            except Exception:
                pass
        print(json.dumps(out))
        """
    let root = TestSupport.fixtures
    var files: [String] = []
    let walker = FileManager.default.enumerator(atPath: root.path)
    while let f = walker?.nextObject() as? String {
        if f.hasSuffix(".der") || f.hasSuffix(".pem") || f.hasSuffix(".crt") { files.append(root.path + "/" + f) }
    }
    guard let json = try TestSupport.run(["python3", "-c", script] + files) else {
        throw XCTSkip("python3 with cryptography is not available")
    }
    let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: [Any]]
    for (path, entries) in expected.sorted(by: { $0.key < $1.key }) {
        let parsed = try? Certificate.all(from: TestSupport.read(path))
        guard let parsed, parsed.count == entries.count else { continue }
        for (c, entry) in zip(parsed, entries) { try body(path, c, entry) }
    }
}

/// `Certificate.trustExtensions()` (the one strict decoding the trust layer keeps): which known
/// extensions are present and critical, and whether an unknown one is critical, checked
/// against Python `cryptography`'s reading of the same certificates (every fixture certificate
/// it parses), with the OID → bit table written here from RFC 5280 §4.2 / RFC 6962 §3.3.
final class TrustExtensionsTests: XCTestCase {
    static let bits: [String: UInt32] = [
        "2.5.29.19": TrustExtensions.Bit.basicConstraints,
        "2.5.29.15": TrustExtensions.Bit.keyUsage,
        "2.5.29.37": TrustExtensions.Bit.extKeyUsage,
        "2.5.29.17": TrustExtensions.Bit.subjectAltName,
        "2.5.29.18": TrustExtensions.Bit.issuerAltName,
        "2.5.29.14": TrustExtensions.Bit.subjectKeyIdentifier,
        "2.5.29.35": TrustExtensions.Bit.authorityKeyIdentifier,
        "2.5.29.30": TrustExtensions.Bit.nameConstraints,
        "2.5.29.32": TrustExtensions.Bit.certificatePolicies,
        "2.5.29.33": TrustExtensions.Bit.policyMappings,
        "2.5.29.36": TrustExtensions.Bit.policyConstraints,
        "2.5.29.54": TrustExtensions.Bit.inhibitAnyPolicy,
        "2.5.29.31": TrustExtensions.Bit.cRLDistributionPoints,
        "2.5.29.46": TrustExtensions.Bit.freshestCRL,
        "1.3.6.1.5.5.7.1.1": TrustExtensions.Bit.authorityInfoAccess,
        "1.3.6.1.4.1.11129.2.4.2": TrustExtensions.Bit.signedCertificateTimestampList,
    ]

    /// Each certificate's extensions as [dotted OID, critical].
    static let script = "return [[e.oid.dotted_string, e.critical] for e in c.extensions]"

    func testPresenceAndCriticalityAgreeWithPythonCryptography() throws {
        var compared = 0
        var sawCritical = 0
        var sawUnknownCritical = 0
        try forEachFixtureCertificate(readByPython: Self.script) { path, c, entry in
            let exts = entry as! [[Any]]
            guard let x = try? c.trustExtensions() else { return }  // malformed for Sigil
            var present: UInt32 = 0
            var critical: UInt32 = 0
            var unknownCritical = false
            for e in exts {
                let oid = e[0] as! String
                let isCritical = e[1] as! Bool
                if let b = Self.bits[oid] {
                    present |= b
                    if isCritical { critical |= b }
                } else if isCritical {
                    unknownCritical = true
                }
            }
            XCTAssertEqual(x.present, present, path)
            XCTAssertEqual(x.critical, critical, path)
            XCTAssertEqual(x.unknownCritical, unknownCritical, path)
            // validateExtensions() is this decoding.
            XCTAssertNoThrow(try c.validateExtensions(), path)
            compared += 1
            if critical != 0 { sawCritical += 1 }
            if unknownCritical { sawUnknownCritical += 1 }
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(sawCritical, 10)
        print(
            "TrustExtensionsTests: \(compared) certificates, \(sawUnknownCritical) with an unknown critical extension")
    }

    /// Each certificate's extKeyUsage key purposes (dotted), None without the extension.
    static let ekuScript = """
        try:
            return [o.dotted_string for o in c.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value]
        except x509.ExtensionNotFound:
            return None
        """

    /// The extKeyUsage purposes `trustExtensions()` classifies while decoding the list
    /// (`extendedKeyUsagePurposes`: serverAuth, clientAuth, anyExtendedKeyUsage) agree with the
    /// key purposes Python `cryptography` reads from the same certificates (every fixture
    /// certificate both parse), the OIDs written here from RFC 5280 §4.2.1.12.
    func testExtendedKeyUsagePurposesAgreeWithPythonCryptography() throws {
        var compared = 0
        var withEKU = 0
        var sawPurpose: UInt8 = 0
        try forEachFixtureCertificate(readByPython: Self.ekuScript) { path, c, eku in
            guard let x = try? c.trustExtensions() else { return }  // malformed for Sigil
            var purposes: UInt8 = 0
            if let oids = eku as? [String] {
                withEKU += 1
                if oids.contains("1.3.6.1.5.5.7.3.1") { purposes |= TrustExtensions.Purpose.serverAuth }
                if oids.contains("1.3.6.1.5.5.7.3.2") { purposes |= TrustExtensions.Purpose.clientAuth }
                if oids.contains("2.5.29.37.0") { purposes |= TrustExtensions.Purpose.any }
                XCTAssertNotNil(x.extendedKeyUsage, path)
            } else {
                XCTAssertNil(x.extendedKeyUsage, path)
            }
            XCTAssertEqual(x.extendedKeyUsagePurposes, purposes, path)
            // The best-effort reading classifies the same way.
            XCTAssertEqual(c.trustExtensionsBestEffort().extendedKeyUsagePurposes, purposes, path)
            sawPurpose |= purposes
            compared += 1
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(withEKU, 10)
        // Each of the three purposes occurs in the fixtures.
        XCTAssertEqual(sawPurpose, 0b111)
    }

    /// `policiesAreDistinct(atMost:)` (the raw walk path validation uses) agrees with counting
    /// the policies through the public iterator, on every fixture certificate and on lists
    /// built to break each rule (a duplicate OID, 17 policies).
    func testPolicyDistinctnessAgreesWithTheIterator() throws {
        func check(_ cp: CertificatePolicies, _ what: String) {
            let oids = cp.map { Array($0.policyIdentifier.bytes) }
            let expected = oids.count <= 16 && Set(oids).count == oids.count
            XCTAssertEqual(cp.policiesAreDistinct(atMost: 16), expected, what)
        }
        var seen = 0
        let root = TestSupport.fixtures
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let f = walker?.nextObject() as? String {
            guard f.hasSuffix(".der") || f.hasSuffix(".pem") else { continue }
            guard let certs = try? Certificate.all(from: TestSupport.read(root.path + "/" + f)) else { continue }
            for c in certs {
                guard let cp = (try? c.certificatePolicies()) ?? nil else { continue }
                check(cp, f)
                seen += 1
            }
        }
        XCTAssertGreaterThan(seen, 10)
        // certificatePolicies values by hand (X.690): policies 2.23.140.1.2.<n>.
        func value(_ arcs: [UInt8]) -> [UInt8] {
            let infos = arcs.flatMap { n -> [UInt8] in
                let oid: [UInt8] = [0x06, 0x06, 0x67, 0x81, 0x0C, 0x01, 0x02, n]
                return [0x30, UInt8(oid.count)] + oid
            }
            let length: [UInt8] = infos.count < 0x80 ? [UInt8(infos.count)] : [0x81, UInt8(infos.count)]
            return [0x30] + length + infos
        }
        for (arcs, expected) in [
            ([1, 2, 3], true), ([1, 2, 1], false), (Array(1...16), true), (Array(1...17), false), ([7], true),
        ] as [([UInt8], Bool)] {
            let cp = try CertificatePolicies(extensionValue: ByteSpan(unvalidated: value(arcs)))
            XCTAssertEqual(cp.policiesAreDistinct(atMost: 16), expected, "\(arcs)")
            check(cp, "\(arcs)")
        }
    }
}
