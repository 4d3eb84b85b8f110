import Foundation
import SigilTestSupport
import XCTest

/// `sigil inspect --json` of the CRLs and OCSP responses of `Fixtures/revocation/`, field by field
/// against Python `cryptography` (an independent parser): times, CRL number, revoked serials and
/// reasons; OCSP response status, responder, CertID, certificate status and times.
final class InspectRevocationTests: XCTestCase {
    static let dir = TestSupport.packageRoot.appendingPathComponent("Fixtures/revocation").path

    func sigil() throws -> String { try sigilExecutable() }

    /// The reference reading: one JSON object per file, in Sigil's field names and formats.
    static let reference = #"""
        import json, sys
        from cryptography import x509
        from cryptography.x509 import ocsp
        def t(d): return d.strftime('%Y-%m-%dT%H:%M:%SZ') if d else None
        def hx(n): h = '%x' % n; return h if len(h) % 2 == 0 else '0' + h
        def serial_hex(n):
            # DER INTEGER content octets: a leading 00 when the top bit is set.
            h = hx(n)
            return ('00' + h) if int(h[0], 16) >= 8 else h
        out = {}
        for path in sys.argv[1:]:
            data = open(path, 'rb').read()
            if path.endswith('.crl.pem'):
                c = x509.load_pem_x509_crl(data)
                try: num = '0x' + hx(c.extensions.get_extension_for_class(x509.CRLNumber).value.crl_number)
                except x509.ExtensionNotFound: num = None
                revoked = []
                for r in c:
                    try: reason = r.extensions.get_extension_for_class(x509.CRLReason).value.reason.value
                    except x509.ExtensionNotFound: reason = None
                    revoked.append({'serial': serial_hex(r.serial_number), 'revocationDate': t(r.revocation_date_utc), 'reason': reason})
                out[path] = {'type': 'crl', 'thisUpdate': t(c.last_update_utc), 'nextUpdate': t(c.next_update_utc),
                             'crlNumber': num, 'revoked': revoked}
            else:
                r = ocsp.load_der_ocsp_response(data)
                o = {'type': 'ocsp', 'responseStatus': r.response_status.name.lower()}
                if r.response_status == ocsp.OCSPResponseStatus.SUCCESSFUL:
                    o['producedAt'] = t(r.produced_at_utc)
                    o['responses'] = [{'serial': serial_hex(s.serial_number), 'issuerNameHash': s.issuer_name_hash.hex(),
                                       'issuerKeyHash': s.issuer_key_hash.hex(), 'status': s.certificate_status.name.lower(),
                                       'thisUpdate': t(s.this_update_utc), 'nextUpdate': t(s.next_update_utc),
                                       'revocationTime': t(s.revocation_time_utc)} for s in r.responses]
                out[path] = o
        print(json.dumps(out))
        """#

    func testCRLAndOCSPFieldsAgreeWithPythonCryptography() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.dir)
            .filter { $0.hasSuffix(".crl.pem") || $0.hasSuffix(".ocsp.der") }.sorted().map { Self.dir + "/" + $0 }
        XCTAssertGreaterThanOrEqual(files.count, 10, "the revocation fixtures are missing")
        guard let refText = try TestSupport.run(["python3", "-c", Self.reference] + files),
            let ref = try JSONSerialization.jsonObject(with: Data(refText.utf8)) as? [String: [String: Any]]
        else {
            throw XCTSkip("python3 with cryptography is not available")
        }
        let reasons = [
            "unspecified", "keyCompromise", "cACompromise", "affiliationChanged", "superseded",
            "cessationOfOperation", "certificateHold", "removeFromCRL", "privilegeWithdrawn", "aACompromise",
        ]
        var compared = 0
        for file in files {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try sigil())
            p.arguments = ["inspect", "--json", file]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = Pipe()
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, file)
            let mine = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], file)
            let theirs = try XCTUnwrap(ref[file], file)
            XCTAssertEqual(mine["type"] as? String, theirs["type"] as? String, file)
            if theirs["type"] as? String == "crl" {
                for k in ["thisUpdate", "nextUpdate", "crlNumber"] {
                    XCTAssertEqual(mine[k] as? String, theirs[k] as? String, "\(file) \(k)")
                }
                let a = try XCTUnwrap(mine["revoked"] as? [[String: Any]])
                let b = try XCTUnwrap(theirs["revoked"] as? [[String: Any]])
                XCTAssertEqual(a.count, b.count, file)
                for (x, y) in zip(a, b) {
                    XCTAssertEqual(x["serial"] as? String, y["serial"] as? String, file)
                    XCTAssertEqual(x["revocationDate"] as? String, y["revocationDate"] as? String, file)
                    // pyca names reasons in snake case (key_compromise); compare normalised.
                    let mineReason = (x["reason"] as? String).map { $0.lowercased() }
                    let theirReason = (y["reason"] as? String).map {
                        $0.replacingOccurrences(of: "_", with: "").lowercased()
                    }
                    XCTAssertEqual(mineReason, theirReason, "\(file) reason")
                    if let r = mineReason { XCTAssertTrue(reasons.map { $0.lowercased() }.contains(r)) }
                }
            } else {
                XCTAssertEqual(mine["responseStatus"] as? String, theirs["responseStatus"] as? String, file)
                XCTAssertEqual(mine["producedAt"] as? String, theirs["producedAt"] as? String, file)
                let a = try XCTUnwrap(mine["responses"] as? [[String: Any]])
                let b = try XCTUnwrap(theirs["responses"] as? [[String: Any]])
                XCTAssertEqual(a.count, b.count, file)
                for (x, y) in zip(a, b) {
                    for k in ["serial", "issuerNameHash", "issuerKeyHash", "status", "thisUpdate", "nextUpdate"] {
                        XCTAssertEqual(x[k] as? String, y[k] as? String, "\(file) \(k)")
                    }
                    XCTAssertEqual(
                        x["revocationTime"] as? String, y["revocationTime"] as? String, "\(file) revocationTime")
                }
            }
            compared += 1
        }
        XCTAssertEqual(compared, files.count)
    }

    /// A file that is neither a certificate, a CRL nor an OCSP response is an error (exit 1).
    func testGarbageIsRefused() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-inspect-garbage-\(getpid()).der")
        try Data([0x30, 0x03, 0x02, 0x01, 0x05]).write(to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try sigil())
        p.arguments = ["inspect", tmp.path]
        p.standardOutput = Pipe()
        p.standardError = Pipe()
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1)
    }

    /// A PEM file holding a CRL and a damaged certificate block (one base64 character short of a
    /// whole quantum, RFC 4648 §3.5): the CRL is reported, and the certificate reader's refusal
    /// of the input is said and fails the command — the certificates are never left out unsaid.
    func testCRLBesideADamagedCertificateBlockFailsTheCommand() throws {
        let eddsa = TestSupport.fixtures.appendingPathComponent("eddsa/ed25519").path
        let crl = try String(contentsOfFile: eddsa + "/intermediate.crl.pem", encoding: .utf8)
        var leaf = try String(contentsOfFile: eddsa + "/leaf.pem", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try XCTUnwrap(leaf.firstIndex { !$0.hasPrefix("-----") && !$0.isEmpty })
        leaf[first].removeLast()
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-inspect-mixed-\(getpid()).pem")
        try Data((crl + leaf.joined(separator: "\n")).utf8).write(to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let r = try runSigil(["inspect", "--json", tmp.path], exit: 1)
        XCTAssertTrue(r.out.contains("\"thisUpdate\""), r.out)  // the CRL's report
        XCTAssertTrue(r.err.contains(tmp.path), r.err)
        // The intact pair: both reported, exit 0.
        let whole = try String(contentsOfFile: eddsa + "/leaf.pem", encoding: .utf8)
        try Data((crl + whole).utf8).write(to: tmp)
        let ok = try runSigil(["inspect", "--json", tmp.path], exit: 0)
        XCTAssertTrue(ok.out.contains("\"thisUpdate\""), ok.out)
        XCTAssertTrue(ok.out.contains("leaf.ed25519.sigil.test"), ok.out)
    }
}
