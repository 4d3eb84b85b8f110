// FuzzSecurityPolicy: SecurityPolicy.evaluate (AFSecurityPolicy-style pinning) with fuzzed
// configuration, pins, pin sets and served chain, against the fixture roots at a fixed time.
//
// Input: a configuration byte (pinning mode, allowInvalidCertificates, validatesDomainName,
// validatesCertificateChain), a domain byte (one of 8 names or none), a time byte, then
// length-prefixed chunks (FuzzChunks): a count byte n then n pinned certificates, a count byte
// then key pins, a count byte then pin sets, then the served chain (at most 12). A certificate
// chunk of 1 byte is fixture certificate number b (as FuzzVerify); a key pin chunk of 1 byte is
// the pin of fixture b, of 32 bytes a raw SHA-256, else pin text ("sha256/…"); a pin set chunk
// is flags (includesSubdomains, expiry), a domain index and pin bytes (fixture indexes).
//
// Oracles (the policy's contract, Docs/SecurityPolicies.md, not its implementation):
// - no chain → emptyChain; validatesDomainName without a domain → refused;
// - `.trusted` only in mode none, without allowInvalidCertificates, with a trusted ordinary
//   evaluation whose path is the matched chain;
// - `.acceptedWithoutValidation` only with allowInvalidCertificates and no pins in force;
// - `.pinMatched`: a pinning mode with pins; every matched index holds a pinned certificate
//   (certificate mode) / a certificate whose key pin is in force (public-key mode), all of them
//   with validatesCertificateChain; the chain is the validated path unless invalid
//   certificates are allowed (public-key mode: the presented chain);
// - fail closed: whenever the verdict rests on an evaluation (not allowInvalidCertificates),
//   every certificate of the matched chain is byte-identical to a fixture (a fuzzer cannot
//   forge a signature);
// - deterministic (a second evaluation gives the same outcome and matches); a pin's text
//   parses back to the same pin; a pin set applies to its own domain.

import Sigil
import SigilTrust
import SigilX509

public enum SecurityPolicyWalk {
    static let domains: [String?] = [
        nil, "leaf.rsa2048.sigil.test", "leaf.p256.sigil.test", "x.wild.p384.sigil.test",
        "sigil.test", "rsa2048.sigil.test", "192.0.2.10", "example.com",
    ]
    static let times: [Double] = [VerifyWalk.time, 1_735_689_600, 2_082_758_400, 1_500_000_000]

    public static func run(_ data: UnsafeRawBufferPointer) { run(Array(data)) }

    public static func run(_ bytes: [UInt8]) {
        var input = FuzzChunks(bytes)
        let config = input.byte()
        let domain = domains[Int(input.byte()) % domains.count]
        let time = times[Int(input.byte()) % times.count]
        let fixtures = FuzzFixtures.shared.pool

        func certificates(_ max: Int) -> [Certificate] {
            let n = Int(input.byte()) % (max + 1)
            var out: [Certificate] = []
            for _ in 0..<n {
                guard let chunk = input.next() else { break }
                if chunk.count == 1 {
                    out.append(fixtures[Int(chunk[0]) % fixtures.count])
                } else if let c = try? Certificate(der: chunk) {
                    out.append(c)
                }
            }
            return out
        }
        func keyPin(_ chunk: [UInt8]) -> PublicKeyPin? {
            if chunk.count == 1 { return PublicKeyPin(certificate: fixtures[Int(chunk[0]) % fixtures.count]) }
            if chunk.count == 32 { return PublicKeyPin(sha256: chunk) }
            return PublicKeyPin(String(decoding: chunk, as: UTF8.self))
        }

        let modes: [PinningMode] = [.none, .certificate, .publicKey]
        var policy = SecurityPolicy(
            pinningMode: modes[Int(config & 3) % 3], pinnedCertificates: certificates(4),
            anchors: VerifyWalk.anchors)
        policy.allowInvalidCertificates = config & 0x04 != 0
        policy.validatesDomainName = config & 0x08 == 0
        policy.validatesCertificateChain = config & 0x10 != 0

        let pinCount = Int(input.byte()) % 5
        for _ in 0..<pinCount {
            guard let chunk = input.next() else { break }
            if let p = keyPin(chunk) {
                oracle(PublicKeyPin(p.description) == p, "pin text \(p) does not parse back")
                policy.pinnedPublicKeys.append(p)
            }
        }
        let setCount = Int(input.byte()) % 4
        for _ in 0..<setCount {
            guard let chunk = input.next(), chunk.count >= 2 else { break }
            let name = domains[Int(chunk[1]) % domains.count] ?? "sigil.test"
            let pins = chunk.dropFirst(2).map { PublicKeyPin(certificate: fixtures[Int($0) % fixtures.count]) }
            let expires: Double? = chunk[0] & 2 != 0 ? times[Int((chunk[0] >> 2) & 0x1F) % times.count] : nil
            let set = PinSet(
                domain: name, includesSubdomains: chunk[0] & 1 != 0, pins: pins, expires: expires,
                enforced: chunk[0] & 0x80 == 0)
            oracle(set.applies(to: name), "pin set for \(name) does not apply to its own domain")
            _ = set.warnings(at: time)
            policy.pinSets.append(set)
        }
        var chain: [Certificate] = []
        while let chunk = input.next(), chain.count < 12 {
            if chunk.count == 1 {
                chain.append(fixtures[Int(chunk[0]) % fixtures.count])
            } else if let c = try? Certificate(der: chunk) {
                chain.append(c)
            }
        }

        secTrust(chain: chain, domain: domain, time: time, config: config, pinned: policy.pinnedCertificates)
        if let host = domain { ats(chain: chain, host: host, time: time) }

        let e = policy.evaluate(serverChain: chain, domain: domain, at: time)
        _ = e.message
        _ = e.warnings
        _ = e.failures
        let again = policy.evaluate(serverChain: chain, domain: domain, at: time)
        oracle(
            again.outcome == e.outcome && again.matchedIndexes == e.matchedIndexes, "evaluation is not deterministic")
        oracle(
            e.isTrusted
                == (e.outcome == .trusted || e.outcome == .acceptedWithoutValidation || e.outcome == .pinMatched),
            "isTrusted disagrees with the outcome \(e.outcome)")

        // Pins in force, from the contract (RFC 7469 Known Pinned Host): among the sets that
        // apply to the domain and are unexpired and enforced, the one with the longest domain
        // (the exact name, else the nearest parent; the first of equals); when none is, the
        // global pins; when there are none either but some set applies (report-only or
        // expired), mode none.
        var mode = policy.pinningMode
        var keyPins = Set<PublicKeyPin>()
        if mode == .publicKey {
            let applying = domain.map { d in policy.pinSets.filter { $0.applies(to: d) } } ?? []
            var best: PinSet?
            for s in applying where s.enforced && !s.isExpired(at: time) {
                func length(_ d: String) -> Int { d.lowercased().reversed().drop { $0 == "." }.count }
                if best.map({ length(s.domain) > length($0.domain) }) ?? true { best = s }
            }
            if let best {
                keyPins = Set(best.pins)
                // Fail closed: no report-only or expired set makes the enforced one moot.
                oracle(
                    policy.pinSets(for: domain, at: time).enforced == best,
                    "pinSets(for:at:) does not enforce the most specific live enforced set")
            } else if !policy.globalKeyPins.isEmpty || applying.isEmpty {
                keyPins = Set(policy.globalKeyPins)
            } else {
                mode = .none
            }
        }
        let hasPins =
            mode == .certificate ? !policy.pinnedCertificates.isEmpty : (mode == .publicKey && !keyPins.isEmpty)

        if chain.isEmpty {
            oracle(e.outcome == .rejected(.emptyChain), "empty chain not refused: \(e.outcome)")
            return
        }
        if policy.validatesDomainName && domain == nil {
            oracle(!e.isTrusted, "validatesDomainName without a domain trusted")
        }

        switch e.outcome {
        case .trusted:
            oracle(
                mode == .none && !policy.allowInvalidCertificates, "trusted outside mode none / with invalid allowed")
            guard case .trusted(let path, _, _)? = e.ordinaryResult else {
                oracle(false, "trusted without a trusted evaluation")
                return
            }
            oracle(
                path == e.matchedChain && e.matchedChainSource == .validatedPath,
                "trusted: matched chain is not the path")
        case .acceptedWithoutValidation:
            oracle(
                policy.allowInvalidCertificates && mode == .none,
                "accepted without validation but invalid certificates not allowed")
            oracle(
                !(domain != nil && policy.validatesDomainName),
                "accepted without validation while a domain must be validated (clause 1)")
        case .pinMatched:
            oracle(mode != .none && hasPins, "pin matched with no pin in force")
            oracle(!e.matchedIndexes.isEmpty, "pin matched with no matched index")
            for i in e.matchedIndexes {
                oracle(i >= 0 && i < e.matchedChain.count, "matched index out of range")
                let c = e.matchedChain[i]
                if mode == .certificate {
                    oracle(policy.pinnedCertificates.contains(c), "certificate mode matched an unpinned certificate")
                } else {
                    oracle(keyPins.contains(PublicKeyPin(certificate: c)), "public-key mode matched a key not pinned")
                }
            }
            if policy.validatesCertificateChain {
                oracle(
                    e.matchedIndexes.count == e.matchedChain.count,
                    "validatesCertificateChain with an unpinned certificate")
            }
            if mode == .certificate {
                guard case .trusted(let path, _, _)? = e.pinnedResult else {
                    oracle(false, "certificate mode without a trusted pinned evaluation")
                    return
                }
                oracle(path == e.matchedChain, "certificate mode: matched chain is not the pinned path")
                oracle(
                    policy.pinnedCertificates.contains(path[path.count - 1]),
                    "certificate mode: path does not end at a pinned certificate")
            }
            if !policy.allowInvalidCertificates {
                oracle(
                    e.ordinaryResult?.isTrusted == true,
                    "pin matched on an untrusted chain with invalid certificates refused")
                if mode == .publicKey {
                    oracle(e.matchedChainSource == .validatedPath, "public-key mode matched the presented chain")
                }
            }
        case .rejected:
            break
        }
        // Fail closed: a verdict resting on an evaluation holds only fixture certificates.
        if e.isTrusted && e.matchedChainSource == .validatedPath {
            for (i, c) in e.matchedChain.enumerated() {
                oracle(
                    FuzzFixtures.shared.derSet.contains(c.der) || policy.pinnedCertificates.contains(c),
                    "validated path holds a non-fixture certificate at \(i)")
            }
        }
    }

    /// The SecTrust-style evaluator (`CertificateTrust`, Sources/SigilTrust/Policy): policies
    /// from the configuration byte, the caller's anchors (the pinned certificates, only them or
    /// plus the system's = fixture roots). Oracles: trusted ⇔ result proceed/unspecified ⇔ no
    /// failure; a trusted chain starts at the leaf, holds only fixture or anchor certificates,
    /// ends at an effective anchor; unspecified exactly when the anchor is a system one; the
    /// result type agrees with `TrustResultType.forFailures`.
    static func secTrust(chain: [Certificate], domain: String?, time: Double, config: UInt8, pinned: [Certificate]) {
        let all: [VerificationPurpose] = [.server(host: domain), .client, .basic]
        var policies: [VerificationPurpose] = []
        for (i, p) in all.enumerated() where config & (0x20 << i) != 0 { policies.append(p) }
        var trust = CertificateTrust(
            certificates: chain, policies: policies, time: time,
            signatureVerifier: SigilSignatureVerifier(), systemAnchors: VerifyWalk.anchors)
        trust.anchors = pinned
        trust.anchorsOnly = config & 0x80 == 0
        if config & 0x40 != 0, let d = domain { trust.overrideHost(d) }
        let e = trust.evaluate()
        _ = e.result.description
        oracle(
            e.isTrusted == e.failures.isEmpty,
            "CertificateTrust: trusted \(e.isTrusted) with \(e.failures.count) failures")
        if e.isTrusted {
            oracle(!chain.isEmpty && e.chain.first == chain[0], "CertificateTrust: chain does not start at the leaf")
            let anchors = trust.effectiveAnchors
            oracle(
                e.chain.last.map { anchors.contains($0) } ?? false,
                "CertificateTrust: chain does not end at an effective anchor")
            for c in e.chain {
                oracle(
                    FuzzFixtures.shared.derSet.contains(c.der) || pinned.contains(c),
                    "CertificateTrust: non-fixture certificate trusted")
            }
            oracle(
                (e.result == .unspecified) == (e.anchorSource == .system),
                "CertificateTrust: unspecified iff a system anchor")
        } else {
            oracle(
                e.chain.isEmpty && e.result == TrustResultType.forFailures(e.failures) || chain.isEmpty,
                "CertificateTrust: untrusted result \(e.result) disagrees with its failures")
        }
    }

    /// App Transport Security report (Sources/Sigil/Policy/ATS.swift). Oracles: `passed` iff no
    /// requirement fails; a passed report has a validated chain of fixture certificates.
    static func ats(chain: [Certificate], host: String, time: Double) {
        let r = ATSReport.evaluate(presented: chain, host: host, anchors: VerifyWalk.anchors, at: time)
        oracle(
            r.passed == r.requirements.allSatisfy { $0.status != .fail }, "ATS: passed disagrees with the requirements")
        for q in r.requirements {
            for i in q.offending { oracle(i >= 0 && i < max(r.chain.count, 1), "ATS: offending index out of range") }
        }
        if r.passed {
            oracle(r.chainIsValidated && r.trust.isTrusted, "ATS: passed without a validated chain")
            for c in r.chain {
                oracle(FuzzFixtures.shared.derSet.contains(c.der), "ATS: passed with a non-fixture certificate")
            }
        }
        for c in r.chain {
            _ = ATSReport.validityDays(c)
            _ = ATSReport.requiredSCTs(c)
        }
    }
}
