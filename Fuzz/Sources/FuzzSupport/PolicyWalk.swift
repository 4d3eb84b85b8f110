// FuzzPolicy: the certificate policy decoders (certificatePolicies with qualifiers,
// policyMappings, policyConstraints, inhibitAnyPolicy) on fuzzed extension values, and RFC 5280
// §6.1 policy processing (PolicyTree) over the decoded path with fuzzed user inputs.
//
// Input: a flags byte (bit 0 initial-explicit-policy, bit 1 initial-policy-mapping-inhibit,
// bit 2 initial-any-policy-inhibit, bit 3 user set = anyPolicy, bits 4–6 = self-issued mask of
// the first three certificates), a user-set chunk (concatenated OID TLVs), then per certificate
// four chunks — certificatePolicies, policyMappings, policyConstraints and inhibitAnyPolicy
// extnValue contents (empty = extension absent) — up to 8 certificates, the last being the leaf.
//
// Oracles: decoding errors lie inside the value; the outcome does not depend on a larger
// budget once it succeeded with a smaller one (the budget only cuts work short); the result
// sets are sorted and duplicate-free, the user-constrained set lies within the
// authorities-constrained set or the user set; an explicit requirement that succeeded left a
// non-empty user-constrained set; the whole-tree case (user set any) reports the same two sets.

import SigilDER
import SigilTrust
@_spi(SigilInternal) import SigilX509

public enum PolicyWalk {
    public static func run(_ data: UnsafeRawBufferPointer) {
        run(Array(data))
    }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        let flags = input.byte()
        var options = CertificatePolicyOptions()
        options.initialExplicitPolicy = flags & 1 != 0
        options.initialPolicyMappingInhibit = flags & 2 != 0
        options.initialAnyPolicyInhibit = flags & 4 != 0
        let userChunk = input.next() ?? []
        if flags & 8 == 0 { options.userInitialPolicySet = objectIdentifiers(userChunk) }

        var path: [PolicyCertificate] = []
        while !input.isAtEnd && path.count < 8 {
            let values = (0..<4).map { _ in input.next() ?? [] }
            var cert = PolicyCertificate(isSelfIssued: path.count < 3 && (flags >> (4 + path.count)) & 1 != 0)
            if !values[0].isEmpty,
                let cp = decode(values[0], { (v) throws(DERError) in try CertificatePolicies(extensionValue: v) })
            {
                var list: [ByteSpan] = []
                for p in cp {
                    list.append(p.policyIdentifier)
                    _ = p.qualifiers  // materializes CPS and user notice texts
                    _ = OID.dotted(p.policyIdentifier)
                }
                cert.policies = list
            }
            if !values[1].isEmpty,
                let pm = decode(values[1], { (v) throws(DERError) in try PolicyMappings(extensionValue: v) })
            {
                var list: [(issuer: ByteSpan, subject: ByteSpan)] = []
                for m in pm { list.append((m.issuerDomainPolicy, m.subjectDomainPolicy)) }
                cert.mappings = list
            }
            if !values[2].isEmpty,
                let pc = decode(values[2], { (v) throws(DERError) in try PolicyConstraints(extensionValue: v) })
            {
                oracle(
                    pc.requireExplicitPolicy != nil || pc.inhibitPolicyMapping != nil,
                    "empty policyConstraints accepted")
                cert.requireExplicitPolicy = pc.requireExplicitPolicy
                cert.inhibitPolicyMapping = pc.inhibitPolicyMapping
            }
            if !values[3].isEmpty,
                let n = decode(
                    values[3], { (v) throws(DERError) in try Certificate.decodeInhibitAnyPolicy(extensionValue: v) })
            {
                oracle(n >= 0, "negative SkipCerts")
                cert.inhibitAnyPolicy = n
            }
            path.append(cert)
        }

        var small = 2048
        let first = PolicyTree.evaluate(path, options: options, budget: &small)
        var large = 1 << 20
        let second = PolicyTree.evaluate(path, options: options, budget: &large)
        switch (first, second) {
        case (.success(let a), .success(let b)):
            oracle(a == b, "result depends on the budget")
            check(a, options)
        case (.success, .failure(let f)):
            oracle(false, "succeeded with a small budget, failed with a large one: \(f.kind)")
        case (.failure(let f), .success(let b)):
            oracle(f.kind == .budgetExhausted, "failed with \(f.kind) only under the small budget")
            check(b, options)
        case (.failure(let f), .failure(let g)):
            oracle(f == g || f.kind == .budgetExhausted, "different failures: \(f.kind) / \(g.kind)")
        }
        if case .success = first { oracle(small >= 0, "success with an overdrawn budget") }
    }

    static func check(_ p: ValidatedPolicies, _ options: CertificatePolicyOptions) {
        for set in [p.authoritiesConstrained, p.userConstrained] {
            oracle(Set(set).count == set.count, "duplicate policy in a result set")
        }
        let auth = Set(p.authoritiesConstrained)
        let user = Set(options.userInitialPolicySet)
        for q in p.userConstrained {
            oracle(auth.contains(q) || user.contains(q), "user-constrained policy from nowhere")
        }
        if options.userAcceptsAnyPolicy { oracle(p.userConstrained == p.authoritiesConstrained, "any-policy user set") }
        if p.explicitPolicyRequired { oracle(!p.userConstrained.isEmpty, "explicit policy required and none left") }
    }

    /// Decodes `bytes` (copied into their own storage, as an extension value would be) with
    /// `body`; a `DERError` must point inside the value.
    static func decode<T>(_ bytes: [UInt8], _ body: (ByteSpan) throws(DERError) -> T) -> T? {
        let span = ByteSpan(unvalidated: bytes)
        do {
            return try body(span)
        } catch {
            oracle(
                error.offset >= 0 && error.offset <= bytes.count,
                "error offset \(error.offset) outside 0...\(bytes.count)")
            return nil
        }
    }

    /// The OBJECT IDENTIFIER TLVs at the start of `bytes` (content octets), stopping at the
    /// first thing that is not one.
    static func objectIdentifiers(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = 0
        while i + 2 <= bytes.count, bytes[i] == 0x06, bytes[i + 1] < 0x80, i + 2 + Int(bytes[i + 1]) <= bytes.count {
            let n = Int(bytes[i + 1])
            out.append(Array(bytes[(i + 2)..<(i + 2 + n)]))
            i += 2 + n
        }
        return out
    }
}
