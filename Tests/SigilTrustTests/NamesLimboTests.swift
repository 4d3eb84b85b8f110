import Foundation
import SigilTestSupport
import SigilX509
import XCTest

@testable import SigilTrust

/// Name checks against x509-limbo (C2SP/x509-limbo, in `/work/shared/vectors/limbo`), an
/// independent suite whose expected verdicts come from RFC 5280 / CA/B Forum readings and
/// BetterTLS. Sigil has no path validator here, so each test case's path is assembled by
/// issuer/subject name (the cases used have a single candidate path) and judged on names
/// only: the peer name must match the leaf, and every CA with name constraints must accept
/// every certificate below it (self-issued intermediates exempt, RFC 5280 §6.1.3 (b)).
/// Only test cases whose verdict depends on nothing but names are used.
final class NamesLimboTests: XCTestCase {
    struct Case {
        let id: String
        let expectSuccess: Bool
        let peer: (kind: String, value: String)?
        let path: [Certificate]  // leaf first, trust anchor last
    }

    nonisolated(unsafe) static var cached: [[String: Any]]?

    static func testcases() throws -> [[String: Any]] {
        if let c = cached { return c }
        guard let data = try TestSupport.limboSuiteJSON() else {
            throw XCTSkip("x509-limbo suite not found (../shared/vectors or $SIGIL_VECTORS)")
        }
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let cases = json["testcases"] as! [[String: Any]]
        cached = cases
        return cases
    }

    static func certificate(_ pem: String) throws -> Certificate {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return try Certificate(der: [UInt8](Data(base64Encoded: body)!))
    }

    /// Leaf first, then issuers found by name among intermediates and anchors.
    static func makeCase(_ t: [String: Any]) throws -> Case {
        let leaf = try certificate(t["peer_certificate"] as! String)
        let pool = try ((t["untrusted_intermediates"] as! [String]) + (t["trusted_certs"] as! [String])).map(
            certificate)
        let anchors = try (t["trusted_certs"] as! [String]).map(certificate)
        var path = [leaf]
        while path.count < 8 {
            let last = path.last!
            if anchors.contains(last) { break }
            guard let issuer = pool.first(where: { $0.subject.matchesForChaining(last.issuer) && !path.contains($0) })
            else { break }
            path.append(issuer)
        }
        var peer: (String, String)?
        if let p = t["expected_peer_name"] as? [String: Any] { peer = (p["kind"] as! String, p["value"] as! String) }
        return Case(
            id: t["id"] as! String, expectSuccess: (t["expected_result"] as! String) == "SUCCESS", peer: peer,
            path: path)
    }

    /// Sigil's verdict on names alone; a description of the first failure, or nil.
    static func nameVerdict(_ c: Case) -> String? {
        if let peer = c.peer {
            switch peer.kind {
            case "DNS", "IP":
                guard let id = ServerIdentity(peer.value) else { return "reference identity refused" }
                guard (try? c.path[0].matches(id)) == true else { return "peer name does not match" }
            case "RFC822":
                guard (try? c.path[0].matchesEmail(peer.value)) == true else { return "email does not match" }
            default:
                return "unknown peer kind"
            }
        }
        // BR §7.1.4.3 (CN repeats a SAN): limbo expects it only in its webpki::cn cases. Its
        // other webpki cases carry CN=example.com beside SANs like *.example.com or
        // 127.0.0.1 and expect success (nc-permits-dns-san-pattern, exact-localhost-ip-san,
        // leftmost-wildcard-san), so the check is applied to webpki::cn only here.
        if c.id.hasPrefix("webpki::cn::") && (try? c.path[0].commonNameIsConsistentWithSubjectAltName()) != true {
            return "CN is not a copy of a SAN"
        }
        if let failure = NameConstraints.check(path: c.path) { return "\(failure.result)" }
        return nil
    }

    /// Limbo cases decided by names only (others also test criticality, EKU, path building...).
    static let nameOnlyCases: Set<String> = [
        "rfc5280::nc::permitted-dns-mismatch", "rfc5280::nc::excluded-dns-match",
        "rfc5280::nc::permitted-dns-match", "rfc5280::nc::permitted-dns-match-more",
        "rfc5280::nc::excluded-dns-match-second", "rfc5280::nc::permitted-ip-mismatch",
        "rfc5280::nc::excluded-ipv4-match", "rfc5280::nc::excluded-ipv6-match",
        "rfc5280::nc::permitted-ipv4-match", "rfc5280::nc::permitted-ipv6-match",
        "rfc5280::nc::permitted-dn-mismatch", "rfc5280::nc::excluded-dn-match",
        "rfc5280::nc::permitted-dn-match", "rfc5280::nc::permitted-dn-match-subject-san-mismatch",
        "rfc5280::nc::excluded-dn-match-sub-mismatch", "rfc5280::nc::permitted-self-issued",
        "rfc5280::nc::excluded-self-issued-leaf", "rfc5280::nc::excluded-match-permitted-and-excluded",
        "rfc5280::nc::permitted-different-constraint-type", "rfc5280::nc::excluded-different-constraint-type",
        "rfc5280::nc::invalid-dnsname-wildcard", "rfc5280::nc::invalid-email-address",
        "rfc5280::nc::invalid-ipv4-address", "rfc5280::nc::invalid-ipv6-address",
        "rfc5280::nc::nc-permits-invalid-ip-san",
        "webpki::nc::intermediate-permitted-excluded-subtrees-both-null",
        "webpki::nc::intermediate-permitted-excluded-subtrees-both-empty-sequences",
        "rfc5280::nc::intermediate-with-san-rejected-by-intermediate-nc",
        "rfc5280::nc::intermediate-with-san-rejected-by-root-nc",
        "rfc5280::nc::restrictive-permits-in-intermediates-narrows",
        "rfc5280::nc::restrictive-permits-in-intermediates-widens",
        "rfc5280::nc::nc-permits-invalid-dns-san", "rfc5280::nc::nc-permits-invalid-email-san",
        "rfc5280::nc::nc-permits-email-exact", "rfc5280::nc::nc-permits-email-domain",
        "rfc5280::nc::nc-permits-email-literal-asterisk-exact-match",
        "rfc5280::nc::nc-permits-email-literal-asterisk-rejects-user",
        "rfc5280::nc::nc-permits-email-literal-asterisk-rejects-subdomain",
        "rfc5280::nc::nc-permits-email-literal-double-asterisk",
        "rfc5280::nc::nc-permits-email-literal-double-asterisk-rejects-single",
        "rfc5280::nc::nc-permits-email-literal-mid-asterisk",
        "rfc5280::nc::nc-forbids-othername", "rfc5280::nc::nc-forbids-othername-noop",
        "rfc5280::nc::nc-forbids-dnsname-wildcard-san",
        "rfc5280::san::underscore-dns", "rfc5280::san::ip-in-dns",
        "webpki::nc::nc-permits-dns-san-pattern",
        "webpki::san::exact-dns-san", "webpki::san::exact-localhost-ip-san",
        "webpki::san::mismatch-domain-san", "webpki::san::mismatch-subdomain-san",
        "webpki::san::mismatch-subdomain-apex-san", "webpki::san::mismatch-apex-subdomain-san",
        "webpki::san::public-suffix-wildcard-san", "webpki::san::public-suffix-multi-label-wildcard-san",
        "webpki::san::leftmost-wildcard-san", "webpki::san::wildcard-embedded-leftmost-san",
        "webpki::san::wildcard-not-in-leftmost-san", "webpki::san::wildcard-match-across-labels-san",
        "webpki::san::wildcard-embedded-ulabel-san", "webpki::san::unicode-emoji-san",
        "webpki::san::no-san", "webpki::san::san-wildcard-only", "webpki::san::san-wildcard-only-tld",
        "cve::cve-2025-61727", "cve::cve-2025-61727-nc-permits-variant",
        "webpki::cn::ipv4-hex-mismatch", "webpki::cn::ipv4-leading-zeros-mismatch",
        "webpki::cn::ipv6-uppercase-mismatch", "webpki::cn::ipv6-uncompressed-mismatch",
        "webpki::cn::ipv6-non-rfc5952-mismatch", "webpki::cn::punycode-not-in-san",
        "webpki::cn::utf8-vs-punycode-mismatch", "webpki::cn::not-in-san", "webpki::cn::case-mismatch",
        "pathological::nc-dos-1", "pathological::nc-dos-2", "pathological::nc-dos-3",
    ]

    /// Where Sigil knowingly disagrees with the suite, and why.
    static let knownDisagreements: [String: String] = [
        // `*.s3.amazonaws.com` is in the PSL's PRIVATE section; Sigil's list covers ICANN
        // suffixes only, because S3 itself serves this wildcard (see `PublicSuffixes`).
        "webpki::san::public-suffix-private-namespace-wildcard-san": "private PSL suffixes not embedded"
    ]

    func testCuratedNameCases() throws {
        let all = try Self.testcases()
        var seen = 0
        var failures: [String] = []
        for t in all {
            let id = t["id"] as! String
            guard Self.nameOnlyCases.contains(id) || Self.knownDisagreements[id] != nil else { continue }
            seen += 1
            let c = try Self.makeCase(t)
            let verdict = Self.nameVerdict(c)
            let agrees = (verdict == nil) == c.expectSuccess
            if let why = Self.knownDisagreements[id] {
                XCTAssertFalse(agrees, "\(id) now agrees with limbo; drop it from knownDisagreements (\(why))")
            } else if !agrees {
                failures.append(
                    "\(id): expected \(c.expectSuccess ? "SUCCESS" : "FAILURE"), Sigil: \(verdict ?? "accepted")")
            }
        }
        XCTAssertEqual(seen, Self.nameOnlyCases.count + Self.knownDisagreements.count)
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// All 9 491 BetterTLS name-constraint cases (DNS and IP names, permitted/excluded).
    func testBetterTLSNameConstraints() throws {
        let all = try Self.testcases()
        var count = 0
        var failures: [String] = []
        for t in all where (t["id"] as! String).hasPrefix("bettertls::nameconstraints::") {
            count += 1
            let c = try Self.makeCase(t)
            let verdict = Self.nameVerdict(c)
            if (verdict == nil) != c.expectSuccess {
                failures.append(
                    "\(c.id): expected \(c.expectSuccess ? "SUCCESS" : "FAILURE"), Sigil: \(verdict ?? "accepted")")
            }
        }
        XCTAssertEqual(count, 9491)
        XCTAssertEqual(failures.count, 0, failures.prefix(40).joined(separator: "\n"))
    }
}
