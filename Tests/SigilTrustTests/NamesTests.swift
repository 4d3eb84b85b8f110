import Foundation
import SigilX509
import XCTest

@testable import SigilTrust

/// Tables for reference identities, RFC 6125 matching and RFC 5280 name constraints.
/// Expected values come from the RFC / CA/B Forum text cited on each row, from Python's
/// `ipaddress` and OpenSSL (recorded in Fixtures/names by Fixtures/scripts/gen_names.py), or
/// from x509-limbo (NamesLimboTests) — never from Sigil's own output.
final class NamesTests: XCTestCase {
    static let fixtures: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.appendingPathComponent("Fixtures/names")
    }()

    static func json(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
        return try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
    }

    static func der(_ b64: String) throws -> Certificate {
        try Certificate(der: [UInt8](Data(base64Encoded: b64)!))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ s: String) -> ArraySlice<UInt8> { Array(s.utf8)[...] }

    // MARK: IP text (expected octets from Python `ipaddress`)

    func testIPAddressTextAgainstPythonIpaddress() throws {
        let cases = try Self.json("ip_text.json")
        XCTAssertGreaterThan(cases.count, 3000)
        for c in cases {
            let text = c["text"] as! String
            let expected = c["expected"] as? String
            let got = IPAddress(text).map { Self.hex($0.bytes) }
            XCTAssertEqual(got, expected, "IPAddress(\"\(text)\") \(c["deviation"] as? String ?? "python ipaddress")")
            // An IP text is an IP identity; a malformed one never becomes a DNS name.
            if let e = expected {
                guard case .ip(let a)? = ServerIdentity(text) else {
                    XCTFail("\(text) not an IP identity")
                    continue
                }
                XCTAssertEqual(Self.hex(a.bytes), e)
            } else {
                if case .ip? = ServerIdentity(text) { XCTFail("\(text) became an IP identity") }
            }
        }
    }

    func testIPAddressDescriptionIsRFC5952() {
        // RFC 5952 §4: lowercase, leading zeros dropped, longest run compressed (first if tied).
        XCTAssertEqual(IPAddress("2001:0DB8:0000:0000:0000:0000:0000:0001")?.description, "2001:db8::1")
        XCTAssertEqual(IPAddress("2001:db8:0:0:1:0:0:1")?.description, "2001:db8::1:0:0:1")
        XCTAssertEqual(IPAddress("192.0.2.1")?.description, "192.0.2.1")
    }

    // MARK: Reference DNS names

    func testReferenceDNSNames() {
        typealias E = ServerIdentity.ParseError
        let rows: [(String, Result<String, E>, String)] = [
            ("example.com", .success("example.com"), "LDH name"),
            ("EXAMPLE.Com", .success("example.com"), "RFC 4343: case-insensitive, normalised to lowercase"),
            ("example.com.", .success("example.com"), "one trailing dot (absolute name) removed"),
            ("localhost", .success("localhost"), "single label"),
            ("xn--bcher-kva.example", .success("xn--bcher-kva.example"), "A-label (RFC 5890 §2.3.2.1)"),
            ("a-b.c1.example", .success("a-b.c1.example"), "hyphen inside, digits"),
            ("3com.example", .success("3com.example"), "label starting with a digit (RFC 1123 §2.1)"),
            ("example.com..", .failure(.emptyLabel), "only one trailing dot is removed"),
            (".example.com", .failure(.emptyLabel), "empty label"),
            ("a..example.com", .failure(.emptyLabel), "empty label"),
            (".", .failure(.empty), "the root alone"),
            ("", .failure(.empty), "empty"),
            ("*.example.com", .failure(.wildcard), "RFC 6125 §6.4.3: no wildcard in a reference identity"),
            ("foo_bar.example.com", .failure(.invalidCharacter), "'_' is not LDH"),
            ("-a.example.com", .failure(.invalidCharacter), "RFC 1123: no leading hyphen"),
            ("a-.example.com", .failure(.invalidCharacter), "RFC 1123: no trailing hyphen"),
            ("exa mple.com", .failure(.invalidCharacter), "space"),
            ("bücher.example", .failure(.nonASCII), "U-labels are not converted: pass the A-label"),
            ("1.2.3.04", .failure(.numericTopLabel), "not a valid IPv4 address, not a host name"),
            ("256.1.1.1", .failure(.numericTopLabel), "not a valid IPv4 address, not a host name"),
            ("127.1", .failure(.numericTopLabel), "inet_aton shorthand is not accepted"),
            ("example.123", .failure(.numericTopLabel), "no all-numeric top-level label"),
            ("example.com:443", .failure(.invalidIPAddress), "a port is not part of the name"),
            ("[example.com]", .failure(.invalidIPAddress), "brackets only around IPv6"),
            (
                String(repeating: "a", count: 63) + ".example",
                .success(String(repeating: "a", count: 63) + ".example"), "63-octet label"
            ),
            (String(repeating: "a", count: 64) + ".example", .failure(.labelTooLong), "RFC 1035 §2.3.4: labels ≤ 63"),
            (
                Array(repeating: "abcdefghi", count: 25).joined(separator: ".") + ".abc",
                .success(Array(repeating: "abcdefghi", count: 25).joined(separator: ".") + ".abc"), "253 octets"
            ),
            (
                Array(repeating: "abcdefghi", count: 25).joined(separator: ".") + ".abcd", .failure(.tooLong),
                "254 octets"
            ),
        ]
        for (text, expected, why) in rows {
            let got: Result<String, E>
            do {
                let id = try ServerIdentity.parse(text)
                guard case .dns(let n) = id else {
                    XCTFail("\(text): not DNS")
                    continue
                }
                got = .success(n.description)
            } catch {
                got = .failure(error)
            }
            XCTAssertEqual(got, expected, "\(text): \(why)")
        }
    }

    // MARK: Presented vs reference (RFC 6125 §6.4, CA/B Forum)

    func testPresentedDNSNameMatching() {
        // (presented, reference, match, source)
        let rows: [(String, String, Bool, String)] = [
            ("example.com", "example.com", true, "RFC 6125 §6.4.1"),
            ("Example.COM", "example.com", true, "RFC 6125 §6.4.1: case-insensitive"),
            ("example.com", "www.example.com", false, "RFC 6125 §6.4.1"),
            ("www.example.com", "example.com", false, "RFC 6125 §6.4.1"),
            ("*.example.com", "foo.example.com", true, "RFC 6125 §6.4.3 example"),
            ("*.example.com", "bar.foo.example.com", false, "RFC 6125 §6.4.3 example"),
            ("*.example.com", "example.com", false, "RFC 6125 §6.4.3 example"),
            ("*.Example.Com", "foo.example.com", true, "case-insensitive"),
            (
                "baz*.example.net", "baz1.example.net", false,
                "RFC 6125 §6.4.3 item 1 (optional; refused per CA/B BR §1.6.1)"
            ),
            ("*baz.example.net", "foobaz.example.net", false, "RFC 6125 §6.4.3 item 1 (refused)"),
            ("b*z.example.net", "buzz.example.net", false, "RFC 6125 §6.4.3 item 1 (refused)"),
            ("bar.*.example.net", "bar.foo.example.net", false, "RFC 6125 §6.4.3 item 2"),
            ("xn--*.example.com", "xn--abc.example.com", false, "RFC 6125 §6.4.3 item 3"),
            ("*.*.example.com", "a.b.example.com", false, "one wildcard, left-most only"),
            ("*", "com", false, "limbo webpki::san::san-wildcard-only-tld"),
            ("*.com", "example.com", false, "CA/B BR §3.2.2.6: wildcard over a public suffix"),
            ("*.co.uk", "example.co.uk", false, "CA/B BR §3.2.2.6: multi-label public suffix"),
            ("*.com.au", "example.com.au", false, "CA/B BR §3.2.2.6: multi-label public suffix"),
            ("*.example.co.uk", "www.example.co.uk", true, "registrable domain below a public suffix"),
            ("*.example", "foo.example", false, "wildcard parent must have two labels (like NSS, rustls-webpki)"),
            (
                "*.example.com", "xn--bcher-kva.example.com", true,
                "whole-label wildcard may match an A-label (webpki, Go, NSS)"
            ),
            ("example.com.", "example.com", false, "presented names are not absolute"),
            ("foo_bar.example.com", "foobar.example.com", false, "invalid presented name never matches"),
            ("1.2.3.4", "1.2.3.4", false, "all-numeric TLD: never a DNS name (reference is refused too)"),
            ("", "example.com", false, "empty presented name"),
            ("exa\u{0}mple.com", "example.com", false, "NUL byte"),
            ("ex ample.com", "example.com", false, "space"),
        ]
        for (presented, reference, expected, why) in rows {
            XCTAssertEqual(
                presentedDNSNameMatches(Self.bytes(presented), Self.bytes(reference)), expected,
                "\(presented) vs \(reference): \(why)")
        }
    }

    func testPublicSuffixWildcardParents() {
        for forbidden in ["com", "uk", "co.uk", "CO.UK", "com.au", "co.jp", "com.br", "org.uk", "ac.nz"] {
            XCTAssertTrue(PublicSuffixes.isForbiddenWildcardParent(Self.bytes(forbidden)), forbidden)
        }
        for allowed in ["example.com", "example.co.uk", "s3.amazonaws.com", "github.io", "foo.bar.uk"] {
            XCTAssertFalse(PublicSuffixes.isForbiddenWildcardParent(Self.bytes(allowed)), allowed)
        }
    }

    // MARK: Certificates: SAN matching (fixtures; expected from RFC text, OpenSSL recorded)

    func testSubjectAltNameFixtures() throws {
        var checked = 0
        for c in try Self.json("san_cases.json") {
            let cert = try Self.der(c["der"] as! String)
            for check in c["checks"] as! [[String: Any]] {
                let kind = check["kind"] as! String
                let value = check["value"] as! String
                let expected = check["expected"] as! Bool
                let got: Bool
                switch kind {
                case "host", "ip":
                    if let id = ServerIdentity(value) {
                        got = try cert.matches(id)
                        if case .ip = id {
                            XCTAssertEqual(kind, "ip", value)
                        } else {
                            XCTAssertEqual(kind, "host", value)
                        }
                    } else {
                        got = false  // an invalid reference name matches nothing
                    }
                default:
                    got = try cert.matchesEmail(value)
                }
                XCTAssertEqual(got, expected, "\(c["name"]!): \(kind) \(value): \(check["why"]!)")
                if let o = check["openssl"] as? Bool, o != expected {
                    XCTAssertNotNil(check["deviation"], "\(value): disagreement with OpenSSL must be explained")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 40)
    }

    func testIPIdentityNeverMatchesDNSTextAndViceVersa() throws {
        let c = try Self.json("san_cases.json").first { ($0["name"] as! String) == "dns-malformed" }!
        let cert = try Self.der(c["der"] as! String)
        // The certificate has dNSName "1.2.3.4" (text): neither identity form may match it.
        XCTAssertFalse(try cert.matches(ServerIdentity("1.2.3.4")!))
        XCTAssertNil(DNSName("1.2.3.4"))
    }

    func testCommonNameConsistency() throws {
        let cases = try Self.json("cn_cases.json")
        XCTAssertGreaterThan(cases.count, 10)
        for c in cases {
            let cert = try Self.der(c["der"] as! String)
            XCTAssertEqual(
                try cert.commonNameIsConsistentWithSubjectAltName(), c["expected"] as! Bool,
                "\(c["name"]!): \(c["why"]!)")
        }
    }

    // MARK: Email

    func testMailboxSyntax() {
        let rows: [(String, Bool, String)] = [
            ("user@example.com", true, "dot-atom local part"),
            ("first.last+tag@example.com", true, "RFC 5322 §3.2.3 atext and dots"),
            ("*@example.com", true, "'*' is atext (literal, not a wildcard)"),
            ("a@b@example.com", false, "two '@' (limbo invalid-email-address)"),
            ("@example.com", false, "empty local part"),
            ("user@", false, "empty domain"),
            (".user@example.com", false, "leading dot"),
            ("us..er@example.com", false, "double dot"),
            ("user.@example.com", false, "trailing dot"),
            ("\"quoted\"@example.com", false, "quoted local parts unsupported"),
            ("user@[192.0.2.1]", false, "address literals unsupported"),
            ("user@exa_mple.com", false, "domain must be LDH"),
            (String(repeating: "a", count: 65) + "@example.com", false, "RFC 5321 §4.5.3.1.1: local part ≤ 64"),
        ]
        for (s, ok, why) in rows {
            XCTAssertEqual(Mailbox.split(Self.bytes(s)) != nil, ok, "\(s): \(why)")
        }
    }

    // MARK: Name constraints per form (RFC 5280 §4.2.1.10)

    func testDNSNameConstraints() {
        typealias O = ConstraintOutcome
        // (name, constraint, excluded, outcome, source)
        let rows: [(String, String, Bool, O, String)] = [
            ("www.host.example.com", "host.example.com", false, .within, "RFC 5280 §4.2.1.10 example"),
            ("host1.example.com", "host.example.com", false, .outside, "RFC 5280 §4.2.1.10 example"),
            ("host.example.com", "host.example.com", false, .within, "zero labels added"),
            ("badexample.com", "example.com", false, .outside, "label boundary"),
            ("example.com", "example.com", true, .within, "excluded, same name"),
            // RFC 5280 has no leading-period dNSName constraint: malformed, fail closed
            // (limbo rfc5280::nc::invalid-dnsname-leading-period).
            (
                "a.example.com", ".example.com", false, .malformedConstraint,
                "leading dot: not an RFC 5280 dNSName constraint"
            ),
            (
                "example.com", ".example.com", true, .malformedConstraint,
                "leading dot: not an RFC 5280 dNSName constraint"
            ),
            ("anything.test", "", false, .within, "empty constraint: everything"),
            ("anything.test", "", true, .within, "empty constraint: everything"),
            ("A.EXAMPLE.COM", "example.com", false, .within, "case-insensitive"),
            ("*.example.com", "example.com", false, .within, "every match is below example.com"),
            ("*.a.example.com", "example.com", false, .within, "deeper wildcard"),
            (
                "*.example.com", "a.example.com", false, .outside,
                "b.example.com would be outside (limbo cve-2025-61727-nc-permits-variant)"
            ),
            ("*.example.com", "bar.example.com", true, .within, "could match excluded (limbo cve-2025-61727)"),
            ("*.example.com", "a.b.example.com", true, .outside, "one label cannot reach a.b.example.com"),
            ("*.example.com", "example.com", true, .within, "all matches excluded"),
            ("*.example.com", "other.com", true, .outside, "unrelated"),
            ("foo_bar.example.com", "example.com", false, .malformedName, "invalid name under a DNS constraint"),
            (".example.com", "example.com", false, .malformedName, "limbo nc-permits-invalid-dns-san"),
            ("*.com", "com", false, .malformedName, "refused wildcard"),
            ("a.example.com", "*.example.com", false, .malformedConstraint, "limbo invalid-dnsname-wildcard"),
            ("a.example.com", "example.com.", false, .malformedConstraint, "trailing dot"),
            ("a.example.com", "..example.com", false, .malformedConstraint, "two leading dots"),
            ("a.example.com", "exa_mple.com", false, .malformedConstraint, "not LDH"),
        ]
        for (n, k, excluded, expected, why) in rows {
            XCTAssertEqual(
                dnsConstraintOutcome(Self.bytes(n), Self.bytes(k), excluded: excluded), expected,
                "\(n) vs \(excluded ? "excluded" : "permitted") \(k): \(why)")
        }
    }

    func testEmailConstraints() {
        typealias O = ConstraintOutcome
        let rows: [(String, String, Bool, O, String)] = [
            ("root@example.com", "root@example.com", false, .within, "RFC 5280 §4.2.1.10: a particular mailbox"),
            ("Root@example.com", "root@example.com", false, .outside, "local part is case-sensitive"),
            ("root@EXAMPLE.com", "root@example.com", false, .within, "domain case-insensitive"),
            ("any@host.example.com", "host.example.com", false, .within, "RFC 5280: all mailboxes on a host"),
            ("any@sub.host.example.com", "host.example.com", false, .outside, "host form: that host only"),
            // RFC 5280 §4.2.1.10 host rule, the same for excluded subtrees: "example.com" names
            // the host, ".example.com" the domain "but not Internet mail addresses on the host".
            ("any@sub.host.example.com", "host.example.com", true, .outside, "excluded host form: that host only"),
            ("any@host.example.com", "host.example.com", true, .within, "excluded host form: the host itself"),
            ("any@HOST.example.com", "host.example.com", true, .within, "excluded host form: case-insensitive"),
            ("any@mail.example.com", ".example.com", true, .within, "excluded '.domain': hosts in the domain"),
            ("any@mail.example.com", ".example.com", false, .within, "RFC 5280: any host in the domain"),
            (
                "any@example.com", ".example.com", false, .outside,
                "'.domain' excludes the domain itself when permitting"
            ),
            ("any@example.com", ".example.com", true, .outside, "excluded '.domain': not the host itself"),
            ("*@example.com", "*@example.com", false, .within, "limbo: literal asterisk"),
            ("user@example.com", "*@example.com", false, .outside, "limbo: asterisk is not a wildcard"),
            ("**@example.com", "*@example.com", false, .outside, "limbo: literal"),
            ("a@b@example.com", "example.com", false, .malformedName, "limbo nc-permits-invalid-email-san"),
            ("user@example.com", "a@b@example.com", false, .malformedConstraint, "limbo invalid-email-address"),
            ("user@example.com", "", false, .within, "empty constraint: everything"),
        ]
        for (n, k, excluded, expected, why) in rows {
            XCTAssertEqual(
                emailConstraintOutcome(Self.bytes(n), Self.bytes(k), excluded: excluded), expected,
                "\(n) vs \(excluded ? "excluded" : "permitted") \(k): \(why)")
        }
    }

    func testURIConstraintsAndHostExtraction() {
        let hosts: [(String, String?)] = [
            ("https://www.example.com/path", "www.example.com"),
            ("https://www.example.com", "www.example.com"),
            ("https://www.example.com:8443/x", "www.example.com"),
            ("ldap://ldap.example.com/cn=x?y", "ldap.example.com"),
            ("HTTP://Example.COM#frag", "Example.COM"),
            ("https://www.example.com:", "www.example.com"),  // RFC 3986: port = *DIGIT
            ("urn:isbn:0451450523", nil),
            ("mailto:user@example.com", nil),
            ("https://user@example.com/", nil),
            ("https://good.com@evil.com/", nil),
            ("https://[2001:db8::1]/", nil),
            ("https://192.0.2.1/", nil),
            ("https://exa%6dple.com/", nil),
            ("https://example.com:80a/", nil),
            ("https:///path", nil),
            ("//example.com/", nil),
            ("1http://example.com/", nil),
            ("https://example.com./", nil),
        ]
        for (uri, host) in hosts {
            XCTAssertEqual(uriHost(Self.bytes(uri)).map { String(decoding: $0, as: UTF8.self) }, host, uri)
        }
        typealias O = ConstraintOutcome
        let rows: [(String, String, Bool, O)] = [
            ("https://host.example.com/", "host.example.com", false, .within),
            ("https://www.host.example.com/", "host.example.com", false, .outside),  // "it specifies a host"
            ("https://www.host.example.com/", "host.example.com", true, .outside),  // excluded: that host only
            ("https://host.example.com/", "host.example.com", true, .within),  // excluded: the host
            ("https://my.host.example.com/", ".example.com", true, .within),  // excluded domain
            ("https://example.com/", ".example.com", true, .outside),  // "not satisfied by example.com"
            ("https://host.example.com/", ".host.example.com", false, .outside),
            ("https://my.host.example.com/", ".example.com", false, .within),  // RFC example
            ("https://example.com/", ".example.com", false, .outside),  // RFC example
            ("urn:x:y", ".example.com", false, .malformedName),
            ("https://a.example.com/", "*.example.com", false, .malformedConstraint),
        ]
        for (n, k, excluded, expected) in rows {
            XCTAssertEqual(
                uriConstraintOutcome(Self.bytes(n), Self.bytes(k), excluded: excluded), expected, "\(n) vs \(k)")
        }
    }

    func testIPConstraints() {
        typealias O = ConstraintOutcome
        func b(_ s: String) -> ArraySlice<UInt8> {  // "a.b.c.d/m.m.m.m" or an address
            let parts = s.split(separator: "/").map(String.init)
            return (parts.flatMap { IPAddress($0)!.bytes })[...]
        }
        let rows: [(String, String, Bool, O, String)] = [
            ("192.0.2.7", "192.0.2.0/255.255.255.0", false, .within, "RFC 5280 §4.2.1.10: 192.0.2.0/24"),
            ("192.0.3.7", "192.0.2.0/255.255.255.0", false, .outside, ""),
            ("192.0.2.7", "192.0.2.7/255.255.255.255", false, .within, "/32"),
            ("8.8.8.8", "0.0.0.0/0.0.0.0", false, .within, "/0"),
            ("10.1.2.3", "10.0.0.0/255.240.0.0", false, .within, "/12"),
            ("10.16.0.1", "10.0.0.0/255.240.0.0", false, .outside, "/12"),
            ("2001:db8::1", "192.0.2.0/255.255.255.0", false, .outside, "family mismatch (permitted)"),
            ("192.0.2.1", "::/::", false, .outside, "family mismatch (IPv4 name, IPv6 constraint)"),
            ("2001:db8:1::1", "2001:db8::/ffff:ffff::", false, .within, "/32"),
            ("::ffff:192.0.2.1", "192.0.2.0/255.255.255.0", true, .within, "IPv4-mapped vs excluded IPv4"),
            (
                "::ffff:192.0.2.1", "192.0.2.0/255.255.255.0", false, .outside,
                "IPv4-mapped vs permitted IPv4: families never mix"
            ),
            (
                "192.0.2.1", "::ffff:192.0.2.0/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00", true, .within,
                "IPv4 vs excluded IPv4-mapped range"
            ),
            (
                "192.0.2.1", "::ffff:192.0.2.0/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00", false, .outside,
                "IPv4 vs permitted IPv6: families never mix"
            ),
            ("2001:db8::1", "192.0.2.0/255.255.255.0", true, .outside, "not IPv4-mapped"),
            ("192.0.2.1", "192.0.2.0/255.0.255.0", false, .malformedConstraint, "non-contiguous mask"),
            ("192.0.2.1", "192.0.2.0/255.255.255.1", false, .malformedConstraint, "non-contiguous mask"),
            ("192.0.2.1", "192.0.2.0/255.255.254.255", false, .malformedConstraint, "non-contiguous mask"),
            ("192.0.2.1", "192.0.2.1/255.255.255.0", false, .malformedConstraint, "address bits outside the mask"),
        ]
        for (n, k, excluded, expected, why) in rows {
            XCTAssertEqual(ipConstraintOutcome(b(n), b(k), excluded: excluded), expected, "\(n) vs \(k) \(why)")
        }
        XCTAssertEqual(
            ipConstraintOutcome([1, 2, 3, 4][...], [1, 2, 3, 4][...], excluded: false), .malformedConstraint,
            "4-octet constraint")
    }

    /// DER `Name` with one attribute per RDN (UTF8String values), lengths per X.690 §8.1.3.
    static func name(_ rdns: [([UInt8], String)]) -> DistinguishedName {
        func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
            var out = [tag]
            appendDERLength(content.count, to: &out)
            return out + content
        }
        var seq: [UInt8] = []
        for (oid, value) in rdns {
            seq += tlv(0x31, tlv(0x30, tlv(0x06, oid) + tlv(0x0C, Array(value.utf8))))
        }
        let der = tlv(0x30, seq)
        return try! DistinguishedName(der: der)
    }

    func testDERLengthEncoding() {
        // X.690 §8.1.3.4 short form, §8.1.3.5 long form with minimal octets.
        for (n, expected) in [
            (0, [0x00]), (127, [0x7F]), (128, [0x81, 0x80]), (300, [0x82, 0x01, 0x2C]),
            (65_536, [0x83, 0x01, 0x00, 0x00]),
        ] as [(Int, [UInt8])] {
            var out: [UInt8] = []
            appendDERLength(n, to: &out)
            XCTAssertEqual(out, expected, "\(n)")
        }
    }

    func testDirectoryNameConstraints() {
        let long = String(repeating: "x", count: 200)  // forces long-form lengths
        let subject = Self.name([
            (OID.countryName, "US"), (OID.organizationName, "Example " + long), (OID.commonName, "leaf"),
        ])
        var budget = 1_000
        // RFC 5280 §4.2.1.10 / §7.1: RDN-wise prefix, caseIgnoreMatch with space folding.
        XCTAssertEqual(directoryNameOutcome(subject, Self.name([(OID.countryName, "US")]), budget: &budget), .within)
        XCTAssertEqual(
            directoryNameOutcome(
                subject, Self.name([(OID.countryName, "us"), (OID.organizationName, "example  " + long)]),
                budget: &budget), .within)
        XCTAssertEqual(
            directoryNameOutcome(
                subject, Self.name([(OID.countryName, "US"), (OID.organizationName, "Example")]), budget: &budget),
            .outside)
        XCTAssertEqual(
            directoryNameOutcome(subject, Self.name([(OID.organizationName, "Example " + long)]), budget: &budget),
            .outside, "prefix, not any RDN")
        XCTAssertEqual(
            directoryNameOutcome(
                subject,
                Self.name([
                    (OID.countryName, "US"), (OID.organizationName, "Example " + long),
                    (OID.commonName, "leaf"), (OID.commonName, "more"),
                ]), budget: &budget), .outside, "longer than the name")
        XCTAssertEqual(
            directoryNameOutcome(subject, Self.name([]), budget: &budget), .within, "the empty name covers every name")
        var tiny = 3
        XCTAssertEqual(
            directoryNameOutcome(
                subject, Self.name([(OID.countryName, "US"), (OID.organizationName, "Example " + long)]), budget: &tiny),
            .overBudget)
    }

    func testSmallAPIs() {
        XCTAssertNil(IPAddress(bytes: [1, 2, 3]))
        XCTAssertEqual(IPAddress(bytes: [192, 0, 2, 1])?.description, "192.0.2.1")
        XCTAssertEqual(IPAddress(bytes: [192, 0, 2, 1])?.isIPv4, true)
        XCTAssertEqual(ServerIdentity("[2001:DB8::1]")?.description, "2001:db8::1")
        XCTAssertEqual(ServerIdentity("WWW.Example.COM.")?.description, "www.example.com")
        XCTAssertEqual(ServerIdentity("192.0.2.1"), .ip(IPAddress(bytes: [192, 0, 2, 1])!))
        XCTAssertTrue(NameConstraintsResult.satisfied.isSatisfied)
        XCTAssertFalse(NameConstraintsResult.violated("x").isSatisfied)
    }

    // MARK: Certificates: name constraints (fixtures; expected from RFC text, OpenSSL recorded)

    func testNameConstraintFixtures() throws {
        let cases = try Self.json("nc_cases.json")
        XCTAssertGreaterThan(cases.count, 45)
        for c in cases {
            let name = c["name"] as! String
            let ca = try Self.der(c["ca"] as! String)
            let leaf = try Self.der(c["leaf"] as! String)
            let nc = try XCTUnwrap(try ca.nameConstraints(), name)
            let r = NameConstraints.check(nc, for: leaf)
            let category: String
            switch r {
            case .satisfied: category = "satisfied"
            case .violated: category = "violated"
            case .malformedConstraint: category = "malformedConstraint"
            case .unsupported: category = "unsupported"
            }
            XCTAssertEqual(category, c["expected"] as! String, "\(name): \(c["why"]!) — got \(r)")
            let opensslAccepts = (c["openssl"] as! String) == "accept"
            if opensslAccepts != (category == "satisfied") {
                XCTAssertNotNil(c["deviation"], "\(name): disagreement with OpenSSL must be explained")
            }
            // The CA constrains itself only as a path member; its own names are not checked here.
        }
    }

    func testViolationDescriptionsNameTheCulprit() throws {
        let c = try Self.json("nc_cases.json").first { ($0["name"] as! String) == "dns-permit-one-bad" }!
        let nc = try XCTUnwrap(try Self.der(c["ca"] as! String).nameConstraints())
        XCTAssertEqual(
            NameConstraints.check(nc, for: try Self.der(c["leaf"] as! String)),
            .violated("DNS:evil.com is not in a permitted subtree"))
    }

    func testPathHelper() throws {
        let cases = try Self.json("nc_cases.json")
        func path(_ name: String) throws -> [Certificate] {
            let c = cases.first { ($0["name"] as! String) == name }!
            return [try Self.der(c["leaf"] as! String), try Self.der(c["ca"] as! String)]
        }
        XCTAssertNil(NameConstraints.check(path: try path("dns-permit-sub")))
        let failure = try XCTUnwrap(NameConstraints.check(path: try path("dns-permit-other")))
        XCTAssertEqual(failure.constrainingCA, 1)
        XCTAssertEqual(failure.certificate, 0)
        XCTAssertEqual(failure.result, .violated("DNS:www.example.org is not in a permitted subtree"))
        XCTAssertNil(NameConstraints.check(path: [try path("dns-permit-other")[0]]), "a lone leaf has no CA above it")
    }

    func testBudgetIsEnforced() throws {
        let c = try Self.json("nc_cases.json").first { ($0["name"] as! String) == "dns-permit-sub" }!
        let nc = try XCTUnwrap(try Self.der(c["ca"] as! String).nameConstraints())
        let leaf = try Self.der(c["leaf"] as! String)
        // The leaf has a subject (1 directoryName vs 1 constraint) and one dNSName: 2 comparisons.
        XCTAssertEqual(NameConstraints.check(nc, for: leaf, budget: 2), .satisfied)
        guard case .unsupported = NameConstraints.check(nc, for: leaf, budget: 1) else {
            return XCTFail("budget of 1 must not suffice")
        }
        guard case .unsupported = NameConstraints.check(nc, for: leaf, budget: Int.min) else {
            return XCTFail("a negative budget allows nothing (and must not overflow)")
        }
        // Along a path the budget is shared, not restarted per certificate: the leaf twice
        // below the CA needs 2 + 2 comparisons; 3 suffice for each alone but not for both.
        let ca = try Self.der(c["ca"] as! String)
        XCTAssertNil(NameConstraints.check(path: [leaf, leaf, ca], budget: 4))
        let shared = try XCTUnwrap(NameConstraints.check(path: [leaf, leaf, ca], budget: 3))
        XCTAssertEqual(shared.certificate, 1)
        guard case .unsupported = shared.result else { return XCTFail("over budget: \(shared.result)") }
    }

    // MARK: Robustness: arbitrary input never traps, and never matches by accident

    func testArbitraryInputIsHandled() {
        var rng = SplitMix64(seed: 0x5167_11A1)
        let alphabet = Array("aZ09-._*@:/[]%.xn--\u{0}\u{7f}".utf8) + [0xC3, 0xBC, 0xFF, 0x80]
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 40)
            var s = [UInt8]()
            for _ in 0..<count { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            let slice = s[...]
            _ = IPAddress.parseIPv4(slice)
            _ = IPAddress.parseIPv6(slice)
            _ = ServerIdentity(String(decoding: s, as: UTF8.self))
            _ = uriHost(slice)
            _ = Mailbox.split(slice)
            _ = DNSSyntax.classify(slice)
            _ = dnsConstraintOutcome(slice, Self.bytes("example.com"), excluded: true)
            _ = emailConstraintOutcome(slice, slice, excluded: false)
            _ = ipConstraintOutcome(slice, slice, excluded: true)
            // A presented name matching "example.com" must be it (case aside) or a wildcard over it.
            if presentedDNSNameMatches(slice, Self.bytes("www.example.com")) {
                let text = String(decoding: s, as: UTF8.self).lowercased()
                XCTAssertTrue(text == "www.example.com" || text == "*.example.com", text)
            }
        }
        // Very long inputs are refused quickly.
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)[...]
        XCTAssertEqual(DNSSyntax.check(long, wildcard: true), .tooLong)
        XCTAssertNil(IPAddress.parseIPv6(long))
    }
}

struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension NamesTests {
    /// The word-wise case folding of name comparisons against the definition (RFC 4343 §3:
    /// ASCII letters compared case-insensitively, every other octet exactly), on every pair of
    /// a set of names with every case variant and non-ASCII octet placed across word
    /// boundaries, and on random octet strings.
    func testASCIICaseFoldingWordWise() {
        func reference(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.count == b.count && a.map(asciiLower) == b.map(asciiLower)
        }
        var words: [[UInt8]] = [
            [], Array("a".utf8), Array("leaf.rsa2048.sigil.test".utf8), Array("LEAF.RSA2048.SIGIL.TEST".utf8),
            Array("Leaf.Rsa2048.Sigil.Test".utf8), Array("leaf.rsa2048.sigil.tesu".utf8),
            Array("@[`{".utf8), Array("`{@[".utf8), Array("AZaz09-.".utf8), Array("azAZ09-.".utf8),
            Array("abcdefgh\u{e9}ijklmnop".utf8), Array("ABCDEFGH\u{c9}IJKLMNOP".utf8),
        ]
        for k in 0..<20 { words.append((0..<k).map { UInt8(ascii: "a") + UInt8($0 % 26) }) }
        for w in words where !w.isEmpty {
            for pos in [0, w.count / 2, w.count - 1] {
                var up = w
                up[pos] =
                    asciiLower(up[pos]) == up[pos] && up[pos] >= 0x61 && up[pos] <= 0x7A ? up[pos] - 0x20 : up[pos]
                words.append(up)
                var high = w
                high[pos] = 0xC1
                words.append(high)
            }
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let n = Int(random.next() % 24)
            words.append((0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) & 0x7F | 0x40 })
        }
        var equalPairs = 0
        for a in words {
            for b in words where a.count == b.count {
                let expected = reference(a, b)
                if expected { equalPairs += 1 }
                XCTAssertEqual(asciiEqualIgnoringCase(a[...], b[...]), expected, "\(a) \(b)")
            }
        }
        XCTAssertGreaterThan(equalPairs, words.count)
        XCTAssertTrue(
            asciiEqualIgnoringCase(
                Array("Leaf.Rsa2048.Sigil.Test".utf8)[...], Array("leaf.rsa2048.sigil.test".utf8)[...]))
        XCTAssertFalse(asciiEqualIgnoringCase(Array("@[`{@[`{".utf8)[...], Array("`{@[`{@[".utf8)[...]))
    }
}
