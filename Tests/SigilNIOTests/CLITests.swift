#if NIO
    import Foundation
    import SigilTestSupport
    import XCTest

    /// The `sigil` executable built next to the test bundle (swift test builds it), against
    /// `openssl s_server` on 127.0.0.1.
    final class CLITests: XCTestCase {
        var servers: [OpenSSLServer] = []

        override func tearDown() {
            for s in servers { s.stop() }
            servers = []
        }

        var sigil: String {
            get throws {
                let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                for candidate in [
                    dir, dir.deletingLastPathComponent(),
                    TestSupport.packageRoot.appendingPathComponent(".build-nio/debug"),
                ] {
                    let p = candidate.appendingPathComponent("sigil").path
                    if FileManager.default.isExecutableFile(atPath: p) { return p }
                }
                throw XCTSkip("sigil executable not found next to the tests")
            }
        }

        struct Output {
            let status: Int32
            let stdout: [UInt8]
            let stderr: String
        }

        func run(_ args: [String]) throws -> Output {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try sigil)
            p.arguments = args
            let out = Pipe()
            let err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return Output(status: p.terminationStatus, stdout: [UInt8](o), stderr: String(decoding: e, as: UTF8.self))
        }

        func serve(_ cert: String, chain: [String] = ["int"], extra: [String] = []) throws -> Int {
            let s = try OpenSSLServer(cert: cert, chain: chain, extra: extra)
            servers.append(s)
            return s.port
        }

        func testFetchEqualsServedChainAndSClient() throws {
            let port = try serve("leaf")
            let r = try run(["fetch", "127.0.0.1:\(port)", "--sni", "sigil.test"])
            XCTAssertEqual(r.status, 0, r.stderr)
            // Byte for byte the files the server serves, in its order...
            let served =
                try TestSupport.read(TLSFixtures.path("leaf.pem")) + TestSupport.read(TLSFixtures.path("int.pem"))
            XCTAssertEqual(r.stdout, served)
            // ...and what openssl s_client -showcerts prints.
            let sclient = try XCTUnwrap(
                TestSupport.runStdin(
                    [
                        "sh", "-c",
                        "openssl s_client -connect 127.0.0.1:\(port) -servername sigil.test -showcerts 2>/dev/null | sed -n '/-----BEGIN CERTIFICATE-----/,/-----END CERTIFICATE-----/p'",
                    ], input: ""))
            XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), sclient)
        }

        func testFetchDERWritesTheLeaf() throws {
            let port = try serve("leaf")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-fetch-\(port).cer").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let r = try run(["fetch", "127.0.0.1:\(port)", "--der", "--out", out])
            XCTAssertEqual(r.status, 0, r.stderr)
            // openssl's DER of the leaf file (the seeds' `openssl x509 -outform DER`).
            let expected = try XCTUnwrap(
                TestSupport.run([
                    "sh", "-c", "openssl x509 -in '\(TLSFixtures.path("leaf.pem"))' -outform DER | od -An -tx1 -v",
                ]))
            let got = try XCTUnwrap(TestSupport.run(["sh", "-c", "od -An -tx1 -v '\(out)'"]))
            XCTAssertEqual(got, expected)
        }

        func testUnreachablePortExits3() throws {
            let r = try run(["fetch", "127.0.0.1:\(freeLoopbackPort())", "--timeout", "5"])
            XCTAssertEqual(r.status, 3)
            XCTAssertTrue(r.stderr.hasPrefix("sigil: "), r.stderr)
            let v = try run([
                "verify", "--connect", "127.0.0.1:\(freeLoopbackPort())", "--anchor", TLSFixtures.path("root.pem"),
            ])
            XCTAssertEqual(v.status, 3)
        }

        /// `verify --connect` prints the same report and exits with the same code as `verify` on
        /// the files the server serves.
        func testVerifyConnectMatchesVerifyOnFiles() throws {
            let cases: [(serve: String, args: [String])] = [
                ("leaf", ["--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only"]),
                ("leaf", ["--host", "other.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only"]),
                // A fixed time: the expiry failure's detail line names the time checked at, which
                // would differ by a second between the two runs at a second boundary.
                (
                    "leaf-expired",
                    [
                        "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only", "--at",
                        "1700000000",
                    ]
                ),
                ("leaf", ["--host", "sigil.test", "--anchor", TLSFixtures.path("rogue-root.pem"), "--anchors-only"]),
                (
                    "leaf",
                    ["--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only", "--json"]
                ),
                (
                    "leaf",
                    [
                        "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only",
                        "--pin-mode", "public-key", "--pin-key", TLSFixtures.path("int.pem"),
                    ]
                ),
                (
                    "leaf",
                    [
                        "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only",
                        "--pin-mode", "public-key", "--pin-key", TLSFixtures.path("rogue-root.pem"), "--json",
                    ]
                ),
                (
                    "leaf",
                    [
                        "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only",
                        "--pin-mode", "certificate", "--pin-cert", TLSFixtures.path("int.pem"),
                    ]
                ),
                (
                    "leaf",
                    [
                        "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only", "--at",
                        "1600000000",
                    ]
                ),
            ]
            for c in cases {
                let port = try serve(c.serve)
                let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-served-\(port).pem")
                try
                    (try String(contentsOfFile: TLSFixtures.path("\(c.serve).pem"), encoding: .utf8)
                    + String(contentsOfFile: TLSFixtures.path("int.pem"), encoding: .utf8)).write(
                        to: bundle, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: bundle) }
                let files = try run(["verify", bundle.path] + c.args)
                let live = try run(["verify", "--connect", "127.0.0.1:\(port)"] + c.args)
                XCTAssertEqual(live.status, files.status, "\(c): \(live.stderr)")
                // The one expected difference: a pin-failure report made on a connection knows the
                // port (RFC 7469 §3 `port`), one made from files does not (null).
                // And the report's time (RFC 7469 §3 `date-time`, whole seconds): the two runs may
                // fall on either side of a second.
                func sameTime(_ text: String) -> String {
                    text.replacingOccurrences(
                        of: #""date-time":"[0-9T:Z-]+""#, with: #""date-time":"T""#, options: .regularExpression)
                }
                let liveText = sameTime(String(decoding: live.stdout, as: UTF8.self))
                let fileText = sameTime(String(decoding: files.stdout, as: UTF8.self))
                if fileText.contains("\"pinFailureReport\"") {
                    XCTAssertTrue(liveText.contains("\"port\":\(port),"), "\(c): \(liveText)")
                    XCTAssertTrue(fileText.contains("\"port\":null,"), "\(c): \(fileText)")
                }
                XCTAssertEqual(
                    liveText.replacingOccurrences(of: "\"port\":\(port),", with: "\"port\":null,"), fileText, "\(c)")
            }
        }

        func testVerifyConnectChecksSNIByDefault() throws {
            let port = try serve("leaf")
            let ok = try run([
                "verify", "--connect", "127.0.0.1:\(port)", "--sni", "localhost", "--anchor",
                TLSFixtures.path("root.pem"), "--anchors-only",
            ])
            XCTAssertEqual(ok.status, 0, ok.stderr)
            // No SNI and no --host: the IP address dialled is checked; the certificate has no IP.
            let ip = try run([
                "verify", "--connect", "127.0.0.1:\(port)", "--anchor", TLSFixtures.path("root.pem"), "--anchors-only",
            ])
            XCTAssertEqual(ip.status, 1)
            XCTAssertTrue(String(decoding: ip.stdout, as: UTF8.self).contains("name mismatch"))
        }

        func atsLines(_ r: Output) -> String { String(decoding: r.stdout, as: UTF8.self) }

        /// "title\nResult : X" as the report prints it.
        func result(_ text: String, _ title: String) -> String? {
            let lines = text.components(separatedBy: "\n")
            for (i, l) in lines.enumerated()
            where l == title && i + 1 < lines.count && lines[i + 1].hasPrefix("Result : ") {
                return String(lines[i + 1].dropFirst("Result : ".count))
            }
            return nil
        }

        func testATSAgainstTLS13OnlyServer() throws {
            let port = try serve("leaf-ats", extra: ["-tls1_3"])
            let r = try run([
                "ats", "https://127.0.0.1:\(port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only", "--at", "1740000000",
            ])
            let text = atsLines(r)
            XCTAssertEqual(r.status, 0, text + r.stderr)
            XCTAssertEqual(result(text, "TLSv1.3"), "PASS")
            XCTAssertEqual(result(text, "TLSv1.2 with ATS forward-secrecy cipher suites"), "FAIL")
            XCTAssertEqual(result(text, "TLSv1.1"), "FAIL")
            XCTAssertEqual(result(text, "ATS Default Connection"), "PASS")
        }

        func testATSAgainstTLS12OnlyServer() throws {
            let port = try serve("leaf-ats", extra: ["-tls1_2"])
            let r = try run([
                "ats", "https://127.0.0.1:\(port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only", "--at", "1740000000", "--json",
            ])
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any], r.stderr)
            let configs = try XCTUnwrap(json["configurations"] as? [[String: Any]])
            let pass = Dictionary(uniqueKeysWithValues: configs.map { ($0["id"] as! String, $0["pass"] as! Bool) })
            XCTAssertEqual(pass["tls13"], false)
            XCTAssertEqual(pass["tls12-fs"], true)
            XCTAssertEqual(pass["tls11"], false)
            XCTAssertEqual(json["atsDefaultConnection"] as? Bool, true)
            XCTAssertEqual(r.status, 0)
        }

        /// An app whose Info.plist requires TLS 1.3 for *.test (NSIncludesSubdomains), against a
        /// TLS-1.2-only server that meets ATS's defaults: the report says the app refuses it, exit 1.
        func testATSInfoPlistExceptionDomainRequiringTLS13() throws {
            let port = try serve("leaf-ats", extra: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"])
            let plist = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ats-\(port).plist")
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
              <key>NSExceptionDomains</key><dict><key>test</key><dict>
                <key>NSIncludesSubdomains</key><true/>
                <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>
              </dict></dict>
            </dict></dict></plist>
            """.write(to: plist, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: plist) }
            let r = try run([
                "ats", "https://127.0.0.1:\(port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only",
                "--at", "1740000000", "--info-plist", plist.path,
            ])
            let text = atsLines(r)
            XCTAssertEqual(result(text, "ATS Default Connection"), "PASS", text)
            // The app requires TLS 1.3 for *.test: refused.
            XCTAssertTrue(text.contains("REFUSED — minimum TLSv1.3"), text)
            XCTAssertEqual(r.status, 1)
        }

        func plist(_ ats: String, _ port: Int, _ tag: String) throws -> String {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-ats-\(port)-\(tag).plist")
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>
            """.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }

        /// A TLS 1.2 server offering only RSA key exchange (no forward secrecy): ATS's default
        /// connection fails, the forward-secrecy exception passes, and the Info.plist rules decide.
        func testATSNoForwardSecrecyServer() throws {
            let s = try OpenSSLServer(
                cert: "leaf-ats-rsa", chain: ["int"], extra: ["-tls1_2", "-cipher", "AES128-GCM-SHA256"])
            servers.append(s)
            let base = [
                "ats", "https://127.0.0.1:\(s.port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only", "--at", "1740000000",
            ]
            let r = try run(base)
            let text = atsLines(r)
            XCTAssertEqual(result(text, "ATS Default Connection"), "FAIL", text)
            XCTAssertEqual(result(text, "TLSv1.2 without forward secrecy (RSA key exchange only)"), "PASS", text)
            XCTAssertEqual(result(text, "TLSv1.2 with ATS forward-secrecy cipher suites"), "FAIL", text)
            XCTAssertEqual(result(text, "Disabling Perfect Forward Secrecy"), "PASS", text)
            XCTAssertEqual(r.status, 1)

            func allowed(_ ats: String, _ tag: String) throws -> (Bool?, String, Int32) {
                let out = try run(base + ["--json", "--info-plist", try plist(ats, s.port, tag)])
                let json = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(out.stdout)) as? [String: Any], out.stderr)
                return (json["infoPlistAllows"] as? Bool, json["infoPlistRules"] as? String ?? "", out.status)
            }
            // No rules: ATS defaults (forward secrecy required) → refused.
            var a = try allowed("", "none")
            XCTAssertEqual(a.0, false)
            XCTAssertEqual(a.2, 1)
            // The forward-secrecy exception for the domain, deprecated spelling, via a parent domain.
            a = try allowed(
                "<key>NSExceptionDomains</key><dict><key>test</key><dict><key>NSIncludesSubdomains</key><true/><key>NSTemporaryExceptionRequiresForwardSecrecy</key><false/></dict></dict>",
                "fs")
            XCTAssertEqual(a.0, true, a.1)
            XCTAssertEqual(a.2, 0)
            // Without NSIncludesSubdomains the parent domain's exception does not apply.
            a = try allowed(
                "<key>NSExceptionDomains</key><dict><key>test</key><dict><key>NSExceptionRequiresForwardSecrecy</key><false/></dict></dict>",
                "nosub")
            XCTAssertEqual(a.0, false, a.1)
            // NSAllowsArbitraryLoads: no ATS requirement, the chain is still evaluated.
            a = try allowed("<key>NSAllowsArbitraryLoads</key><true/>", "arbitrary")
            XCTAssertEqual(a.0, true, a.1)
            // An exception domain's own rules replace NSAllowsArbitraryLoads for it.
            a = try allowed(
                "<key>NSAllowsArbitraryLoads</key><true/><key>NSExceptionDomains</key><dict><key>sigil.test</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string></dict></dict>",
                "override")
            XCTAssertEqual(a.0, false, a.1)
        }

        /// Base64 SHA-256 of a fixture's SubjectPublicKeyInfo, computed by openssl (Apple's recipe
        /// for SPKI-SHA256-BASE64).
        func spkiDigest(_ stem: String) throws -> String {
            let cmd =
                "openssl x509 -in '\(TLSFixtures.path("\(stem).pem"))' -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64"
            return try XCTUnwrap(TestSupport.run(["sh", "-c", cmd])).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Issue 21 §4: Apple's key precedence. NSAllowsArbitraryLoads is ignored when
        /// NSAllowsArbitraryLoadsInWebContent / ForMedia / NSAllowsLocalNetworking is present (any
        /// value); NSAllowsLocalNetworking lifts ATS for local hosts only. Before the fix each of
        /// these printed ALLOWED.
        func testATSInfoPlistArbitraryLoadsPrecedence() throws {
            let s = try OpenSSLServer(
                cert: "leaf-ats-rsa", chain: ["int"], extra: ["-tls1_2", "-cipher", "AES128-GCM-SHA256"])
            servers.append(s)
            let base = [
                "ats", "https://127.0.0.1:\(s.port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only", "--at", "1740000000", "--json", "--info-plist",
            ]
            func verdict(_ ats: String, _ tag: String) throws -> (allowed: Bool?, decidedBy: String, status: Int32) {
                let out = try run(base + [try plist(ats, s.port, tag)])
                let json = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(out.stdout)) as? [String: Any], out.stderr)
                return (json["infoPlistAllows"] as? Bool, json["infoPlistDecidedBy"] as? String ?? "", out.status)
            }
            var v = try verdict("<key>NSAllowsArbitraryLoads</key><true/>", "arb")
            XCTAssertEqual(v.allowed, true)
            XCTAssertEqual(v.decidedBy, "NSAllowsArbitraryLoads")
            for (key, value) in [
                ("NSAllowsArbitraryLoadsInWebContent", "<true/>"), ("NSAllowsArbitraryLoadsForMedia", "<false/>"),
                ("NSAllowsLocalNetworking", "<true/>"),
            ] {
                v = try verdict("<key>NSAllowsArbitraryLoads</key><true/><key>\(key)</key>\(value)", key)
                XCTAssertEqual(v.allowed, false, "\(key): NSAllowsArbitraryLoads is ignored, ATS defaults refuse")
                XCTAssertTrue(v.decidedBy.contains("NSAllowsArbitraryLoads is ignored because \(key)"), v.decidedBy)
                XCTAssertEqual(v.status, 1)
            }
            // NSAllowsLocalNetworking alone: sigil.test is not a local host.
            v = try verdict("<key>NSAllowsLocalNetworking</key><true/>", "local")
            XCTAssertEqual(v.allowed, false)
            // An exception domain decides for its hosts whatever NSAllowsArbitraryLoads says.
            v = try verdict(
                "<key>NSAllowsArbitraryLoads</key><true/><key>NSExceptionDomains</key><dict><key>sigil.test</key><dict><key>NSExceptionRequiresForwardSecrecy</key><false/></dict></dict>",
                "exc")
            XCTAssertEqual(v.allowed, true)
            XCTAssertEqual(v.decidedBy, "NSExceptionDomains[sigil.test]")
            // NSRequiresCertificateTransparency cannot be checked yet: refused (fail closed).
            v = try verdict(
                "<key>NSExceptionDomains</key><dict><key>sigil.test</key><dict><key>NSExceptionRequiresForwardSecrecy</key><false/><key>NSRequiresCertificateTransparency</key><true/></dict></dict>",
                "ct")
            XCTAssertEqual(v.allowed, false)
        }

        /// Issue 21 §4: NSPinnedDomains (iOS 14+) is enforced on the validated path: leaf
        /// identities against the leaf, CA identities against the path's CA certificates, both
        /// when both are given; a pin set that matches nothing refuses. Before the fix a domain
        /// pinned to a key that matches nothing was reported ALLOWED.
        func testATSInfoPlistPinnedDomains() throws {
            let port = try serve("leaf-ats", extra: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"])
            let base = [
                "ats", "https://127.0.0.1:\(port)", "--host", "sigil.test", "--anchor", TLSFixtures.path("root.pem"),
                "--anchors-only", "--at", "1740000000", "--json", "--info-plist",
            ]
            let leaf = try spkiDigest("leaf-ats")
            let root = try spkiDigest("root")
            let int = try spkiDigest("int")
            let rogue = try spkiDigest("rogue-root")
            func ids(_ key: String, _ digests: [String]) -> String {
                "<key>\(key)</key><array>"
                    + digests.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }.joined()
                    + "</array>"
            }
            func pinned(_ domain: String, includes: Bool = false, _ body: String) -> String {
                "<key>NSPinnedDomains</key><dict><key>\(domain)</key><dict>"
                    + (includes ? "<key>NSIncludesSubdomains</key><true/>" : "") + body + "</dict></dict>"
            }
            func allowed(_ ats: String, _ tag: String) throws -> Bool? {
                let out = try run(base + [try plist(ats, port, "pin-\(tag)")])
                let json = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(out.stdout)) as? [String: Any], out.stderr)
                XCTAssertEqual(out.status, (json["infoPlistAllows"] as? Bool) == true ? 0 : 1, tag)
                return json["infoPlistAllows"] as? Bool
            }
            XCTAssertEqual(try allowed("", "none"), true, "the control: ATS defaults pass")
            XCTAssertEqual(try allowed(pinned("sigil.test", ids("NSPinnedLeafIdentities", [leaf])), "leaf"), true)
            XCTAssertEqual(try allowed(pinned("sigil.test", ids("NSPinnedLeafIdentities", [rogue])), "leaf-bad"), false)
            XCTAssertEqual(try allowed(pinned("sigil.test", ids("NSPinnedCAIdentities", [root])), "ca-root"), true)
            XCTAssertEqual(
                try allowed(pinned("sigil.test", ids("NSPinnedCAIdentities", [rogue, int])), "ca-int"), true)
            XCTAssertEqual(
                try allowed(pinned("sigil.test", ids("NSPinnedCAIdentities", [leaf])), "ca-leaf"), false,
                "the leaf is not a CA certificate of the chain")
            XCTAssertEqual(
                try allowed(
                    pinned("sigil.test", ids("NSPinnedLeafIdentities", [leaf]) + ids("NSPinnedCAIdentities", [rogue])),
                    "both-ca-bad"), false, "both given: both must match")
            XCTAssertEqual(
                try allowed(
                    pinned("sigil.test", ids("NSPinnedLeafIdentities", [leaf]) + ids("NSPinnedCAIdentities", [root])),
                    "both"), true)
            XCTAssertEqual(try allowed(pinned("sigil.test", ids("NSPinnedLeafIdentities", [])), "empty"), false)
            XCTAssertEqual(try allowed(pinned("sigil.test", ""), "no-keys"), false, "an entry with no identity")
            XCTAssertEqual(
                try allowed(pinned("test", ids("NSPinnedLeafIdentities", [rogue])), "parent"), true,
                "a parent domain without NSIncludesSubdomains does not cover sigil.test")
            XCTAssertEqual(
                try allowed(pinned("test", includes: true, ids("NSPinnedLeafIdentities", [rogue])), "parent-sub"), false
            )
            // Pins hold even where NSAllowsArbitraryLoads lifts ATS's requirements.
            XCTAssertEqual(
                try allowed(
                    "<key>NSAllowsArbitraryLoads</key><true/>"
                        + pinned("sigil.test", ids("NSPinnedLeafIdentities", [rogue])),
                    "arb"), false)
        }

        func testATSUnreachableExits3() throws {
            let r = try run(["ats", "https://127.0.0.1:\(freeLoopbackPort())", "--timeout", "5"])
            XCTAssertEqual(r.status, 3, r.stderr)
        }
    }
#endif
