import SigilDER
import SigilX509

/// The path validator's calls into name matching and name constraints.
enum NameChecks {
    enum ConstraintResult {
        case satisfied
        case violated(String)
        case unsupported(String)
    }

    /// Name constraints of one CA applied to one certificate below it.
    static func constraints(_ nc: NameConstraints, for cert: Certificate, isLeaf: Bool) -> ConstraintResult {
        switch checkNameConstraints(nc, for: cert) {
        case .satisfied: return .satisfied
        case .violated(let what): return .violated(what)
        case .malformedConstraint(let what): return .unsupported("malformed name constraint: \(what)")
        case .unsupported(let why): return .unsupported(why)
        }
    }

    /// Host / IP / e-mail identity checks of the leaf.
    static func identityFailures(_ c: Certificate, options: VerificationOptions) -> [TrustFailure] {
        var out: [TrustFailure] = []
        if let host = options.host {
            // RFC 6125 §6.4 / BR: subjectAltName only, no Common Name fallback.
            guard let id = ServerIdentity(host) else {
                return [TrustFailure(.nameMismatch, at: 0, "\"\(host)\" is not a valid host name or IP address")]
            }
            if (try? matches(c, id)) != true {
                out.append(TrustFailure(.nameMismatch, at: 0, "certificate is not valid for \(id)"))
            }
        }
        for email in options.emails where (try? matchesEmail(c, email)) != true {
            out.append(TrustFailure(.nameMismatch, at: 0, "certificate is not valid for the e-mail address \(email)"))
        }
        return out
    }

    /// A presented dNSName is a syntactically valid host name (RFC 5280 §4.2.1.6 → RFC 1034
    /// §3.5 preferred syntax, letters/digits/hyphens), optionally with `*` as the whole
    /// left-most label, and not an IPv4 address written as a name.
    static func isValidPresentedDNSName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var labels: [ArraySlice<UInt8>] = []
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2E {
            labels.append(bytes[start..<i])
            start = i + 1
        }
        for (index, label) in labels.enumerated() {
            guard !label.isEmpty, label.count <= 63 else { return false }
            if index == 0 && label.count == 1 && label.first == 0x2A { continue }
            for c in label {
                let ok = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
                if !ok { return false }
            }
            if label.first == 0x2D || label.last == 0x2D { return false }
        }
        // All-numeric last label: an IP address (or nonsense) masquerading as a DNS name.
        if let last = labels.last, last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return false }
        return true
    }
}
