import ArgumentParser
import Foundation
import Sigil

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Decide whether a certificate chain deserves trust.",
        discussion: """
            LEAF may be a PEM bundle: the leaf first, then intermediates. Anchors default to the \
            system store; with --anchor, the system store is added unless --anchors-only is given. \
            Exit codes: 0 trusted, 1 not trusted (reasons on stdout), 2 usage or unreadable input, \
            77 a requested feature is unsupported.

            Purpose (--kind): server (serverAuth and --host/--ip, the CA/B Forum profile), client \
            (clientAuth, --email), code-signing (RFC 5280 §4.2.1.12 codeSigning), eku with \
            --purpose-eku OID (any other extended key usage, e.g. 1.3.6.1.5.5.7.3.8 timeStamping) or \
            basic (the chain only). code-signing and eku require the EKU of the leaf and of every \
            certificate of the path that carries an extKeyUsage (none: any purpose, RFC 5280 §4.2.1.12).

            Revocation (RFC 5280 §6.3, RFC 6960): --crl (PEM or DER, repeatable) and --ocsp-response \
            (DER or PEM, repeatable) are checked for every certificate of the validated path except \
            the anchor. --revocation hard (the default when any is given) fails certificates whose \
            status cannot be established; soft reports them; none ignores the inputs.

            Security policy (AFSecurityPolicy semantics, see Docs/SecurityPolicies.md): --pin-mode \
            certificate|public-key with --pin-cert/--pin-key, --allow-invalid, --no-domain-check and \
            --validate-whole-chain evaluate the chain as AFNetworking's evaluateServerTrust:forDomain: \
            would, with the host (--host/--ip) as the domain. Pins are matched against the validated path. \
            --pin-config FILE loads per-domain key pins (JSON, see README); --pin-report-only checks the \
            key pins without enforcing them (exit 0 when the chain is otherwise trusted) and --pin-report \
            FILE writes the RFC 7469 §3 report when pins in force did not match. --ct-log-list combines \
            with these options: CT is part of the ordinary evaluation the pins are checked after.

            --connect HOST[:PORT] judges the chain a live server presents instead of LEAF, through the \
            SigilNIO integration (needs the NIO trait), with every option above; the name checked is \
            --host/--ip, else the SNI name (--sni, default HOST when a name), else the IP address \
            dialled. Exit code 3: network failure (refused, unreachable, timeout, handshake failed for \
            another reason than the certificates).
            """
    )

    /// What the chain is verified for (`VerificationPurpose`).
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case server, client, basic
        case codeSigning = "code-signing"
        case eku
    }

    @Argument(help: "The peer's certificate (PEM or DER), optionally followed by intermediates (not with --connect).")
    var leaf: String?

    @Option(help: "Connect to HOST[:PORT] (default port 443) and judge the chain the server presents.")
    var connect: String?

    @Option(help: "With --connect: the SNI name (default HOST when it is a name).")
    var sni: String?

    @Option(help: "With --connect: connect + handshake timeout, seconds.")
    var timeout: Double = 10

    @Option(name: .customLong("intermediate"), help: "Untrusted intermediate certificates (PEM/DER file; repeatable).")
    var intermediates: [String] = []

    @Option(name: .customLong("anchor"), help: "Trust anchors (PEM/DER file; repeatable).")
    var anchors: [String] = []

    @Flag(name: .customLong("anchors-only"), help: "Trust only the --anchor certificates, not the system store.")
    var anchorsOnly = false

    @Option(
        help:
            "server (serverAuth, host checked), client (clientAuth, e-mail checked), code-signing (codeSigning EKU), eku (the --purpose-eku EKU) or basic (chain only)."
    )
    var kind: Kind = .server

    @Option(
        name: .customLong("purpose-eku"),
        help:
            "With --kind eku: the purpose as a dotted extended-key-usage OID (e.g. 1.3.6.1.5.5.7.3.8, timeStamping), required of the leaf and of every issuer that carries an extKeyUsage."
    )
    var purposeEKU: String?

    @Option(help: "Expected server DNS name.")
    var host: String?

    @Option(help: "Expected server IP address.")
    var ip: String?

    @Option(name: .customLong("email"), help: "Expected client e-mail address (repeatable).")
    var emails: [String] = []

    @Option(help: "Validation time, Unix seconds (decimals allowed). Default: now.")
    var at: Double?

    @Option(name: .customLong("max-depth"), help: "Maximum number of intermediates (self-issued ones not counted).")
    var maxDepth: Int?

    @Option(
        name: .customLong("eku"),
        help:
            "Required extended key usage, dotted OID (repeatable). Replaces the kind's own (serverAuth for --kind server, clientAuth for client): list it too to keep it."
    )
    var ekus: [String] = []

    @Option(name: .customLong("key-usage"), help: "Key usage the leaf must allow, RFC 5280 name (repeatable).")
    var keyUsages: [String] = []

    // RFC 5280 §6.1.1 policy inputs.
    @Option(
        name: .customLong("policy"),
        help:
            "Acceptable certificate policy, dotted OID (repeatable): the user-initial-policy-set (absent = anyPolicy).")
    var policies: [String] = []

    @Flag(
        name: .customLong("explicit-policy"),
        help: "initial-explicit-policy: the path must be valid for a --policy OID.")
    var explicitPolicy = false

    @Flag(
        name: .customLong("inhibit-policy-mapping"),
        help: "initial-policy-mapping-inhibit: policy mappings are not allowed.")
    var inhibitPolicyMapping = false

    @Flag(
        name: .customLong("inhibit-any-policy"),
        help: "initial-any-policy-inhibit: anyPolicy in certificates is not processed.")
    var inhibitAnyPolicy = false

    @Option(
        name: .customLong("sig-alg"),
        help:
            "Accepted signature algorithm (repeatable; names as x509-limbo: RSA_WITH_SHA256, RSASSA_PSS, ECDSA_WITH_SHA384, ED25519, ...): signatures on the path made with any other are refused, CRLs and OCSP responses signed with any other are not used."
    )
    var sigAlgs: [String] = []

    @Option(name: .customLong("crl"), help: "CRL (PEM or DER) to check revocation against (repeatable).")
    var crls: [String] = []

    @Option(
        name: .customLong("ocsp-response"), help: "OCSP response (DER or PEM) to check revocation against (repeatable)."
    )
    var ocspResponses: [String] = []

    enum RevocationMode: String, ExpressibleByArgument, CaseIterable { case hard, soft, none }

    @Option(
        name: .customLong("revocation"),
        help: "hard (undetermined fails; default with --crl/--ocsp-response), soft (undetermined is reported) or none.")
    var revocation: RevocationMode?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Option(
        name: .customLong("ct-log-list"),
        help: "Certificate Transparency log list (v3 JSON of the public lists, or Apple's): check the leaf's SCTs.")
    var ctLogList: String?

    @Option(name: .customLong("ct-policy"), help: "CT policy: apple (default) or chrome.")
    var ctPolicy: CTPolicyArgument = .apple

    @Flag(
        name: .customLong("require-ct"),
        help: "Enforce the CT policy for any anchor (without it, only for chains ending at a system anchor).")
    var requireCT = false

    enum CTPolicyArgument: String, ExpressibleByArgument, CaseIterable {
        case apple, chrome
    }

    /// The CT options the flags ask for (nil: CT not checked). A log list that does not load is a
    /// usage error (exit 2), never a silent "no CT".
    func ctOptions() throws -> CTOptions? {
        guard let file = ctLogList else { return nil }
        let list: CTLogList
        do { list = try CTLogList(json: readInput(file)) } catch {
            printError("sigil: --ct-log-list \(file): \(error)")
            throw ExitCode(Exit.usage)
        }
        return CTOptions(logList: list, profile: ctPolicy == .apple ? .apple : .chrome, required: requireCT)
    }

    enum PinModeArgument: String, ExpressibleByArgument, CaseIterable {
        case none, certificate
        case publicKey = "public-key"
    }

    @Option(
        name: .customLong("pin-mode"),
        help:
            "Pinning mode: none, certificate (the chain must validate to a pinned certificate) or public-key (a certificate of the validated path must carry a pinned key)."
    )
    var pinMode: PinModeArgument?

    @Option(
        name: .customLong("pin-cert"),
        help: "Pinned certificate(s): a PEM/DER file or a directory of .cer/.crt/.der/.pem files (repeatable).")
    var pinCerts: [String] = []

    @Option(
        name: .customLong("pin-key"),
        help: "Pinned public key: sha256/BASE64, or a certificate / PUBLIC KEY file (repeatable; public-key mode).")
    var pinKeys: [String] = []

    @Flag(
        name: .customLong("allow-invalid"),
        help: "Accept chains that fail validation (allowInvalidCertificates). DANGEROUS: development only.")
    var allowInvalid = false

    @Flag(
        name: .customLong("no-domain-check"),
        help: "Do not check the server name (validatesDomainName off: basic X.509 policy).")
    var noDomainCheck = false

    @Flag(
        name: .customLong("validate-whole-chain"),
        help: "Every certificate of the matched chain must be pinned (validatesCertificateChain, AFNetworking 2.x).")
    var validateWholeChain = false

    @OptionGroup(title: "Pin reporting (RFC 7469 §3, TrustKit's report-only mode)")
    var pinReporting: PinReportOptions

    /// Any security-policy option given: the chain is judged by `SecurityPolicy`.
    var usesSecurityPolicy: Bool {
        pinMode != nil || !pinCerts.isEmpty || !pinKeys.isEmpty || allowInvalid || noDomainCheck || validateWholeChain
            || pinReporting.isSet
    }

    func validate() throws {
        if (leaf == nil) == (connect == nil) { throw ValidationError("give a LEAF file or --connect HOST[:PORT]") }
        if connect == nil && sni != nil { throw ValidationError("--sni needs --connect") }
        if connect != nil && (kind == .codeSigning || kind == .eku) {
            throw ValidationError("--connect judges a TLS server: not with --kind \(kind.rawValue)")
        }
        if let c = connect { _ = try HostPort(c) }
        guard timeout > 0 && timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600]") }
        // A time that is not a finite number of seconds judges nothing (NaN lies in no
        // validity period; the reports print times as whole seconds).
        if let at, !(at.isFinite && at > -9.0e18 && at < 9.0e18) {
            throw ValidationError("--at must be a finite Unix time in seconds")
        }
        if host != nil && ip != nil { throw ValidationError("give --host or --ip, not both") }
        if let ip, IPAddress(ip) == nil {
            throw ValidationError("--ip \(ip) is not an IP address (use --host for a DNS name)")
        }
        // Apple: anchors set — even none — replace the system's; with --anchors-only and no
        // --anchor nothing could ever be trusted, which is never what was meant.
        if anchorsOnly && anchors.isEmpty {
            throw ValidationError("--anchors-only needs at least one --anchor (with no anchor, nothing is trusted)")
        }
        if kind != .server && (host != nil || ip != nil) && !usesSecurityPolicy {
            throw ValidationError("--host/--ip name a server: use --kind server (or --email with --kind client)")
        }
        if requireCT && ctLogList == nil {
            throw ValidationError("--require-ct needs --ct-log-list (SCTs cannot be checked without the logs)")
        }
        if kind == .eku {
            guard let p = purposeEKU else { throw ValidationError("--kind eku needs --purpose-eku OID") }
            if OID.content(dotted: p) == nil { throw ValidationError("--purpose-eku \(p) is not a dotted OID") }
        } else if purposeEKU != nil {
            throw ValidationError("--purpose-eku names the purpose of --kind eku: give --kind eku")
        }
        if let d = maxDepth, d < 0 { throw ValidationError("--max-depth must be ≥ 0") }
        for e in ekus where OID.content(dotted: e) == nil { throw ValidationError("--eku \(e) is not a dotted OID") }
        for k in keyUsages where KeyUsage(name: k) == nil {
            throw ValidationError("--key-usage \(k) is not an RFC 5280 key usage name")
        }
        for p in policies where OID.content(dotted: p) == nil {
            throw ValidationError("--policy \(p) is not a dotted OID")
        }
        if usesSecurityPolicy { try validatePolicyOptions() }
    }

    /// The revocation options the flags ask for (nil: no checking). A CRL or OCSP file (or a
    /// CRL block of a PEM bundle) that cannot be parsed is reported and left out: the
    /// certificates it would have covered are then undetermined (fail closed under hard fail).
    var revocationMode: RevocationMode { revocation ?? ((crls.isEmpty && ocspResponses.isEmpty) ? .none : .hard) }

    func revocationOptions() -> RevocationOptions? {
        let mode = revocationMode
        if mode == .none { return nil }
        var r = RevocationOptions(policy: mode == .hard ? .hardFail : .softFail)
        for file in crls {
            do {
                // Block by block: a damaged CRL in a bundle leaves the others in force.
                let each = try CertificateList.each(from: readInput(file))
                for (i, result) in each.enumerated() {
                    switch result {
                    case .success(let crl): r.crls.append(crl)
                    case .failure(let error):
                        printError("warning: --crl \(file)\(each.count > 1 ? " [\(i + 1)]" : ""): \(error); ignored")
                    }
                }
            } catch {
                printError("warning: --crl \(file): \(error); ignored")
            }
        }
        for file in ocspResponses {
            do {
                r.ocspResponses.append(try OCSPResponse.load(readInput(file)))
            } catch {
                printError("warning: --ocsp-response \(file): \(error); ignored")
            }
        }
        return r
    }

    /// Parses `blocks` (read from `source`, as the warning names it; the leaf's own file skips
    /// its first block) into `pool`, saying on stderr which did not parse and were ignored.
    func appendIntermediates(
        _ blocks: [[UInt8]], from source: String, skippingFirst: Bool, to pool: inout [Certificate]
    ) {
        for (i, der) in blocks.enumerated() where !(skippingFirst && i == 0) {
            do {
                pool.append(try Certificate(der: der))
            } catch {
                printError("warning: \(source): certificate \(i + 1): \(error); ignored as an intermediate")
            }
        }
    }

    func run() throws {
        if let connect {
            try runConnect(connect)
            return
        }
        let leaf = self.leaf ?? ""
        // The leaf (and any bundled intermediates), read one object at a time.
        let leafCert: Certificate
        var pool: [Certificate] = []
        do {
            let blocks = try readCertificates(leaf).get()
            leafCert = try Certificate(der: blocks[0])
            appendIntermediates(blocks, from: "\(leaf)", skippingFirst: true, to: &pool)
        } catch {
            report(.untrusted([TrustFailure(.malformedCertificate, at: 0, "\(leaf): \(error)")]))
            throw ExitCode(Exit.failure)
        }
        // Intermediates: unparseable ones are ignored, never fatal — but said, as for --anchor:
        // a silently dropped intermediate reads as "unknown issuer" for reasons the user
        // cannot see.
        for file in intermediates {
            switch readCertificates(file) {
            case .success(let blocks):
                appendIntermediates(blocks, from: "--intermediate \(file)", skippingFirst: false, to: &pool)
            case .failure(let error):
                printError("warning: --intermediate \(file): \(error); ignored")
            }
        }
        let trust = makeTrust(certificates: [leafCert] + pool)
        if usesSecurityPolicy {
            try runSecurityPolicy(leaf: leafCert, intermediates: pool, trust: trust)
            return
        }
        var result = trust.verify()
        var ct: CTEvaluation? = nil
        if let options = try ctOptions() {
            (result, ct) = result.applyingCertificateTransparency(options, at: Int64(trust.time))
            if ct == nil, case .untrusted = result {
                // Untrusted for other reasons: the SCTs are still listed (issuer from the pool).
                let issuer = (pool + trust.effectiveAnchors.anchors.map(\.certificate)).first {
                    leafCert.issuer.matchesForChaining($0.subject)
                }
                ct = CTEvaluation(
                    checks: SCTVerifier.check(
                        leafCert, issuer: issuer, logList: options.logList, at: Int64(trust.time)),
                    verdict: CTPolicyVerdict(compliant: false, applies: true, reason: "chain not trusted"),
                    enforced: false)
            }
        }
        report(result, ct: ct)
        if !result.isTrusted { throw ExitCode(Exit.failure) }
    }

    /// The one evaluator of this command (`CertificateTrust`, as `SecurityPolicy` uses): the
    /// anchors merged by its rule, the purpose and name, and every requirement option.
    func makeTrust(certificates: [Certificate]) -> CertificateTrust {
        // One evaluator (`CertificateTrust`) assembles the options and merges the anchors, as
        // for `SecurityPolicy`. The system store is loaded only when the anchor rule uses it
        // (counted by --anchor files: files holding no certificate never fall back to it).
        let usesSystem = CertificateTrust.usesSystemAnchors(
            customAnchorsSet: !anchors.isEmpty, anchorsOnly: anchorsOnly)
        let system = usesSystem ? TrustStore.system() : TrustStore()
        if system.skippedCount > 0 {
            // Fail closed (a damaged file of the store adds nothing), but not silently.
            let location = TrustStore.systemLocation()
            let names = [location.file, location.directory].compactMap { $0 }.joined(separator: ", ")
            printError(
                "warning: system trust store (\(names)): \(system.skippedCount) unusable"
                    + " entr\(system.skippedCount == 1 ? "y" : "ies") (damaged input or a certificate Sigil cannot parse)"
            )
        }
        var trust = CertificateTrust(
            certificates: certificates, policies: [],
            time: at ?? Date().timeIntervalSince1970,
            signatureVerifier: SigilSignatureVerifier(), systemAnchors: system)
        if !anchors.isEmpty {
            // Set even when the files hold no certificate: anchors given never fall back to the
            // system store under --anchors-only.
            var custom = TrustStore()
            for file in anchors {
                let skippedBefore = custom.skippedCount
                let added = withInputStream(file) { custom.add(from: &$0, source: .custom) }
                // Fail closed (nothing of a damaged file, no unparseable certificate becomes an
                // anchor), but say so: a silently dropped anchor reads as "not trusted" for
                // reasons the user cannot see.
                let skipped = custom.skippedCount - skippedBefore
                if added == 0 || skipped > 0 {
                    printError(
                        "warning: --anchor \(file): \(added) certificate(s) added"
                            + (skipped > 0
                                ? ", \(skipped) unusable (damaged input or a certificate Sigil cannot parse)" : ""))
                }
            }
            // The anchors go in as one store — the files' first, then the system's when the
            // anchor rule uses it (as `CertificateTrust.effectiveAnchors` merges them) — not as
            // certificates: a TRUSTED CERTIFICATE block's trust settings stay with its anchor
            // (a root a file rejects for serverAuth must not end a server chain).
            if usesSystem { custom.add(system) }
            trust.systemAnchors = custom
            trust.useSystemAnchors()
        }
        trust.anchorsOnly = anchorsOnly
        if !sigAlgs.isEmpty {
            // A name Sigil does not know (DSA, SHA-3, GOST...) names nothing it could verify:
            // dropping it leaves the restriction exact (all unknown: nothing is accepted).
            for a in sigAlgs where SignatureAlgorithmName(name: a) == nil {
                printError("warning: --sig-alg \(a): not a signature algorithm Sigil verifies")
            }
            trust.algorithms.allowedSignatureAlgorithms = Set(sigAlgs.compactMap { SignatureAlgorithmName(name: $0) })
        }
        switch kind {
        case .server:
            trust.options.purpose = .server(host: host ?? ip)
            if let w = nameWarning { printError("warning: " + w) }
        case .client: trust.options.purpose = .client
        case .codeSigning: trust.options.purpose = .codeSigning
        case .eku:
            // Checked in `validate()`: a dotted OID.
            trust.options.purpose = .extendedKeyUsage(OID.content(dotted: purposeEKU ?? "") ?? [])
        case .basic:
            trust.options.purpose = .basic
            printError("warning: --kind basic checks the chain only; no name was checked")
        }
        trust.options.emails = emails
        trust.options.maximumDepth = maxDepth
        trust.options.requiredEKUs = ekus.compactMap { OID.content(dotted: $0) }
        for k in keyUsages { if let u = KeyUsage(name: k) { trust.options.requiredKeyUsage.insert(u) } }
        trust.certificatePolicies = certificatePolicyOptions
        trust.options.revocation = revocationOptions()
        // An invalid expected name is not a usage error: no certificate is valid for it, and the
        // result says so (name mismatch).
        return trust
    }

    /// `--kind server` with no `--host`/`--ip` (and no `--connect`, whose name is the SNI name
    /// or the address dialled): the chain is judged for serverAuth but for no name.
    var nameWarning: String? {
        guard kind == .server, host == nil, ip == nil, connect == nil else { return nil }
        return
            "--kind server without --host or --ip: no name was checked (any server's certificate from these anchors passes)"
    }

    func report(_ result: TrustResult, ct: CTEvaluation? = nil) {
        if json {
            var object: [(String, JSONValue)] = [("trusted", .bool(result.isTrusted))]
            if kind == .server {
                object.append(("nameChecked", .bool(nameWarning == nil)))
            }
            if let w = nameWarning { object.append(("warnings", .array([.string(w)]))) }
            switch result {
            case .trusted(let path, let anchor, let details):
                object.append(("anchor", .string(anchor == .system ? "system" : "custom")))
                object.append(("path", .array(path.map { .string($0.subject.rfc4514String) })))
                object.append(("policies", Verify.policiesJSON(details.policies)))
                if revocationMode != .none {
                    object.append(("revocation", .array(details.revocation.map(Self.revocationJSON))))
                }
            case .untrusted(let failures):
                object.append(("reasons", .array(failures.map(Self.json))))
            }
            if let ct {
                object.append(
                    (
                        "certificateTransparency",
                        .object([
                            ("compliant", .bool(ct.verdict.compliant)), ("enforced", .bool(ct.enforced)),
                            ("reason", .string(ct.verdict.reason)),
                        ])
                    ))
                object.append(("scts", .array(ct.checks.map(\.json))))
            }
            print(JSONValue.object(object).serialized())
            return
        }
        defer {
            if let ct {
                print(
                    "  certificate transparency: \(ct.verdict.compliant ? "compliant" : "not compliant")"
                        + "\(ct.enforced ? "" : " (not enforced)"): \(ct.verdict.reason)")
                for c in ct.checks { print("    SCT \(c.text)") }
            }
        }
        switch result {
        case .trusted(let path, let anchor, let details):
            print(
                "trusted (anchor: \(anchor == .system ? "system" : "custom"))"
                    + (nameWarning == nil ? "" : " — no name was checked"))
            for (i, c) in path.enumerated() {
                var line = "  [\(i)] \(c.subject.rfc4514String)"
                if let s = details.revocation.first(where: { $0.certificateIndex == i }) {
                    switch s.status {
                    case .good: line += "  (revocation: good, \(s.source?.rawValue ?? ""))"
                    case .revoked: line += "  (revocation: revoked)"
                    case .undetermined(let why): line += "  (revocation: undetermined: \(why))"
                    }
                }
                print(line)
            }
            if !policies.isEmpty || explicitPolicy || details.policies.explicitPolicyRequired {
                print("  user-constrained policies: \(details.policies.userConstrainedDotted.joined(separator: ", "))")
            }
        case .untrusted(let failures):
            print("not trusted: \(failures.first?.summary ?? "unknown reason")")
            for f in failures {
                print("  \(f)")
                if let d = Self.contextDetail(f.context) { print("      \(d)") }
            }
        }
    }

    /// A second line for a failure whose structured context says more than its message: the
    /// names a certificate presents when the name did not match, the validity period when it is
    /// outside it. Formatted from the data, never from the message.
    static func contextDetail(_ c: TrustFailure.Context) -> String? {
        switch c {
        case .hostMismatch(_, let presented), .emailMismatch(_, let presented):
            return presented.isEmpty ? "presents no such name" : "presents: " + presented.joined(separator: ", ")
        case .validity(let notBefore, let notAfter, let t):
            return
                "valid \(DERTime.rfc3339(notBefore)) to \(DERTime.rfc3339(notAfter)), checked at \(DERTime.rfc3339(Int64(t.rounded(.down))))"
        default:
            return nil
        }
    }
}

extension Verify {
    /// `{certificate, status, source?, reason?, date?, message?}` for one certificate.
    static func revocationJSON(_ s: CertificateRevocationStatus) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("certificate", .int(Int64(s.certificateIndex))), ("status", .string(s.status.name)),
        ]
        if let src = s.source { o.append(("source", .string(src.rawValue))) }
        switch s.status {
        case .good: break
        case .revoked(let reason, let date):
            o.append(("reason", .string(reason.name)))
            o.append(("date", .string(DERTime.rfc3339(date))))
        case .undetermined(let why):
            o.append(("message", .string(why)))
        }
        return .object(o)
    }
}

// MARK: - Certificate policies (RFC 5280 §6.1)

extension Verify {
    /// The §6.1.1 inputs from `--policy`, `--explicit-policy`, `--inhibit-policy-mapping`,
    /// `--inhibit-any-policy`.
    var certificatePolicyOptions: CertificatePolicyOptions {
        var o = CertificatePolicyOptions()
        let set = policies.compactMap { OID.content(dotted: $0) }
        if !set.isEmpty { o.userInitialPolicySet = set }
        o.initialExplicitPolicy = explicitPolicy
        o.initialPolicyMappingInhibit = inhibitPolicyMapping
        o.initialAnyPolicyInhibit = inhibitAnyPolicy
        return o
    }

    /// `{"authoritiesConstrained": [...], "userConstrained": [...], "explicitPolicyRequired": bool}`
    /// with dotted OIDs (anyPolicy is "2.5.29.32.0").
    static func policiesJSON(_ p: ValidatedPolicies) -> JSONValue {
        .object([
            ("authoritiesConstrained", .array(p.authoritiesConstrainedDotted.map { .string($0) })),
            ("userConstrained", .array(p.userConstrainedDotted.map { .string($0) })),
            ("explicitPolicyRequired", .bool(p.explicitPolicyRequired)),
        ])
    }

    /// One failure in the JSON output (both the plain and the security-policy verdicts):
    /// kind, certificate, message, and `context` when the failure carries structured context.
    static func json(_ f: TrustFailure) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("kind", .string(f.kind.name)), ("certificate", .int(Int64(f.certificateIndex))),
            ("message", .string(f.message)),
        ]
        if let c = contextJSON(f.context) { o.append(("context", c)) }
        return .object(o)
    }

    /// The structured context of a failure, formatted from the data (nil for a text-only one).
    static func contextJSON(_ c: TrustFailure.Context) -> JSONValue? {
        func time(_ t: Double) -> JSONValue { .string(DERTime.rfc3339(Int64(t.rounded(.down)))) }
        switch c {
        case .text:
            return nil
        case .validity(let notBefore, let notAfter, let t):
            return .object([
                ("notBefore", .string(DERTime.rfc3339(notBefore))), ("notAfter", .string(DERTime.rfc3339(notAfter))),
                ("time", time(t)),
            ])
        case .hostMismatch(let checked, let presented):
            return .object([("checked", .string(checked)), ("presented", .array(presented.map { .string($0) }))])
        case .invalidHostName(let name):
            return .object([("checked", .string(name)), ("valid", .bool(false))])
        case .emailMismatch(let checked, let presented):
            return .object([("checked", .string(checked)), ("presented", .array(presented.map { .string($0) }))])
        case .revocation(let s):
            return revocationJSON(s)
        case .budget(let b):
            var o: [(String, JSONValue)] = [("limit", .string(b.limit.rawValue)), ("stage", .string(b.stage.rawValue))]
            if let spent = b.spent {
                o.append(
                    (
                        "spent",
                        .object([
                            ("signatureChecks", .int(Int64(spent.signatureChecks))),
                            ("candidateVisits", .int(Int64(spent.candidateVisits))),
                            ("nameConstraintComparisons", .int(Int64(spent.nameConstraintComparisons))),
                            ("policyTreeWork", .int(Int64(spent.policyTreeWork))),
                        ])
                    ))
            }
            return .object(o)
        }
    }
}

// MARK: - Security policy (AFSecurityPolicy semantics)

extension Verify {
    func validatePolicyOptions() throws {
        let mode = effectivePinMode
        if mode == .none && (!pinCerts.isEmpty || !pinKeys.isEmpty) {
            throw ValidationError("--pin-cert/--pin-key need --pin-mode certificate or public-key")
        }
        if mode == .certificate && !pinKeys.isEmpty {
            throw ValidationError(
                "--pin-key pins keys: use --pin-mode public-key (certificate mode pins --pin-cert certificates)")
        }
        if mode != .none && pinCerts.isEmpty && pinKeys.isEmpty && pinReporting.configFile == nil {
            throw ValidationError("--pin-mode \(mode.rawValue) needs --pin-cert, --pin-key or --pin-config")
        }
        if mode == .none && validateWholeChain {
            throw ValidationError("--validate-whole-chain needs --pin-mode certificate or public-key")
        }
        if kind == .client || kind == .codeSigning || kind == .eku {
            throw ValidationError(
                "security-policy options judge a server chain: not with --kind \(kind.rawValue)")
        }
        if !noDomainCheck && kind != .basic && host == nil && ip == nil && connect == nil {
            throw ValidationError("give the domain with --host/--ip, or --no-domain-check to skip the name check")
        }
        try validatePinReportOptions()
    }

    func loadPins() throws -> (certificates: [Certificate], keys: [PublicKeyPin]) {
        var certs: [Certificate] = []
        var keys: [PublicKeyPin] = []
        for path in pinCerts {
            guard FileManager.default.fileExists(atPath: path) else {
                printError("sigil: cannot read \(path)")
                throw ExitCode(Exit.usage)
            }
            switch CertificateFiles.load(fileOrDirectory: path) {
            case .success(let loaded):
                for (_, reason) in loaded.skipped { printError("warning: --pin-cert: skipped \(reason)") }
                certs += loaded.certificates
            case .failure(let e):
                printError("sigil: --pin-cert \(e)")
                throw ExitCode(Exit.usage)
            }
        }
        for spec in pinKeys {
            if let pin = PublicKeyPin(spec) {
                keys.append(pin)
                continue
            }
            if spec.lowercased().hasPrefix("sha256/") {
                printError("sigil: --pin-key \(spec): not sha256/ followed by the base64 of 32 bytes")
                throw ExitCode(Exit.usage)
            }
            let (certsInFile, spkis) = readCertificatesAndKeys(spec)
            if certsInFile.isEmpty && spkis.isEmpty {
                printError("sigil: --pin-key \(spec): neither a sha256/ pin nor a certificate or PUBLIC KEY file")
                throw ExitCode(Exit.usage)
            }
            keys +=
                certsInFile.map(PublicKeyPin.init(certificate:)) + spkis.map { PublicKeyPin(subjectPublicKeyInfo: $0) }
        }
        return (certs, keys)
    }

    func runSecurityPolicy(leaf: Certificate, intermediates: [Certificate], trust: CertificateTrust) throws {
        let policy = try makeSecurityPolicy(trust: trust)
        let time = at ?? Date().timeIntervalSince1970
        let domain = host ?? ip
        let e = policy.evaluate(serverChain: [leaf] + intermediates, domain: domain, at: time)
        try printPolicyEvaluation(e, pinningMode: policy.pinningMode)
    }

    /// The security policy the flags ask for, holding `trust`'s one options value (anchors,
    /// algorithms, certificate policies, usages, depth, revocation, budget) and system store;
    /// the policy sets the purpose (the domain, or none with --no-domain-check) and the time.
    func makeSecurityPolicy(trust: CertificateTrust) throws -> SecurityPolicy {
        let pins = try loadPins()
        var policy = SecurityPolicy(
            pinningMode: .none, pinnedCertificates: pins.certificates, anchors: trust.systemAnchors)
        policy.options = trust.options
        switch effectivePinMode {
        case .none: policy.pinningMode = .none
        case .certificate: policy.pinningMode = .certificate
        case .publicKey: policy.pinningMode = .publicKey
        }
        policy.pinnedPublicKeys = pins.keys
        policy.allowInvalidCertificates = allowInvalid
        policy.validatesDomainName = !(noDomainCheck || kind == .basic)
        policy.validatesCertificateChain = validateWholeChain
        // CT inside the ordinary evaluation (clause 2), as for a chain judged without pins.
        policy.certificateTransparency = try ctOptions()
        try applyPinReporting(to: &policy)
        if allowInvalid {
            printError(
                """
                ************************************************************************
                WARNING: --allow-invalid: chains that FAIL validation are ACCEPTED.
                This is allowInvalidCertificates: for development against a self-signed
                server only. Never ship it: it lets anyone intercept the connection\(policy.pinningMode == .publicKey ? ",\nand in public-key mode the chain is not validated at all (no domain,\ndate or signature check)" : "").
                ************************************************************************
                """)
        }
        return policy
    }

    /// Prints `e`; `pinningMode` is the mode the policy ran in (none when --pin-config had no
    /// pin set for the domain, whatever --pin-mode said).
    func printPolicyEvaluation(_ e: SecurityPolicyEvaluation, pinningMode: PinningMode) throws {
        let modeName: String
        switch pinningMode {
        case .none: modeName = PinModeArgument.none.rawValue
        case .certificate: modeName = PinModeArgument.certificate.rawValue
        case .publicKey: modeName = PinModeArgument.publicKey.rawValue
        }
        var transparency: TransparencyDetails? = nil
        if case .trusted(_, _, let details)? = e.ordinaryResult { transparency = details.transparency }
        let reportWritten = writePinReport(e)
        for w in e.warnings where !w.hasPrefix("allowInvalidCertificates is on") { printError("warning: " + w) }
        if json {
            var o: [(String, JSONValue)] = [("trusted", .bool(e.isTrusted))]
            let outcome: String
            switch e.outcome {
            case .trusted: outcome = "trusted"
            case .acceptedWithoutValidation: outcome = "acceptedWithoutValidation"
            case .pinMatched: outcome = "pinMatched"
            case .rejected(let r): outcome = r.rawValue
            }
            o.append(("outcome", .string(outcome)))
            o.append(("message", .string(e.message)))
            o.append(("pinMode", .string(modeName)))
            if let src = e.matchedChainSource {
                o.append(("matchedAgainst", .string(src == .validatedPath ? "validatedPath" : "presented")))
                o.append(("chain", .array(e.matchedChain.map { .string($0.subject.rfc4514String) })))
                o.append(("matched", .array(e.matchedIndexes.map { .int(Int64($0)) })))
            }
            o.append(("reasons", .array(e.failures.map(Self.json))))
            if case .trusted(_, _, let details)? = e.ordinaryResult {
                o.append(("policies", Verify.policiesJSON(details.policies)))
            }
            o.append(("warnings", .array(e.warnings.map { .string($0) })))
            if let ct = transparency {
                o.append(
                    (
                        "certificateTransparency",
                        .object([
                            ("compliant", .bool(ct.compliant)), ("enforced", .bool(ct.enforced)),
                            ("reason", .string(ct.reason)),
                        ])
                    ))
            }
            if let r = e.pinFailureReport { o.append(("pinFailureReport", r.json)) }
            print(JSONValue.object(o).serialized())
        } else {
            switch e.outcome {
            case .trusted:
                // Public-key mode judged as mode none: a report-only or expired pin set.
                print(pinningMode == .none ? "trusted (pin mode none)" : "trusted (pins not enforced for this host)")
            case .acceptedWithoutValidation: print("ACCEPTED WITHOUT VALIDATION (--allow-invalid)")
            case .pinMatched: print("trusted (pin mode \(modeName)): \(e.message)")
            case .rejected(let r): print("not trusted (\(r.rawValue)): \(e.message)")
            }
            if let src = e.matchedChainSource {
                print("  \(src == .validatedPath ? "validated path" : "presented chain (not validated)"):")
                for (i, c) in e.matchedChain.enumerated() {
                    print("  [\(i)] \(c.subject.rfc4514String)\(e.matchedIndexes.contains(i) ? "  <- pinned" : "")")
                }
            }
            if !e.isTrusted || e.outcome == .acceptedWithoutValidation {
                for f in e.failures { print("  \(f)") }
            }
            if let ct = transparency {
                print(
                    "  certificate transparency: \(ct.compliant ? "compliant" : "not compliant")"
                        + "\(ct.enforced ? "" : " (not enforced)"): \(ct.reason)")
            }
        }
        if !e.isTrusted { throw ExitCode(Exit.failure) }
        if !reportWritten { throw ExitCode(Exit.usage) }
    }
}
