// Not in Embedded Swift (Scripts/build-embedded.sh type-checks SigilTrust there): the cache
// needs `Synchronization.Mutex` and metatype identities, which that mode does not offer; the
// trust evaluation itself does not depend on it.
#if !hasFeature(Embedded)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import SigilDER
    import SigilX509
    import Synchronization

    /// A signature verifier whose answer depends only on the certificate and the issuer it is
    /// given, the same for every instance of its type (no configuration, no state that changes a
    /// verdict). `VerdictCache` keys a verifier by its type alone, so it caches only the verdicts
    /// of verifiers that promise this; with any other verifier it is bypassed (every evaluation is
    /// computed afresh). Sigil's `SigilSignatureVerifier` conforms.
    public protocol StatelessSignatureVerifier: CertificateSignatureVerifier {}

    /// An opt-in cache of trusted verdicts for callers that see the same chains again (a server
    /// whose mTLS clients reconnect, a client polling one API): set `CertificateTrust.verdictCache`
    /// (or `SecurityPolicy.verdictCache`) and `evaluate()` / `verify()` answer a repeated chain
    /// from the cache. Thread-safe (one lock); share one instance between connections.
    ///
    /// **What an entry is keyed by** — everything the verdict depends on except the time: the
    /// presented certificates' DER (all of them, in order); the anchors in force (the caller's
    /// anchors' DER, whether they were set, `anchorsOnly`, and — when the system's anchors count —
    /// the system store's anchors, compared by identity of the retained storage or else anchor by
    /// anchor); every purpose (with the host and its parse); e-mail addresses, required extended
    /// key usages and key usage, the depth limit, the algorithm policy, the certificate policy
    /// inputs, the budget; the revocation options (policy, scope, delta CRLs, OCSP age) with every
    /// CRL's and OCSP response's DER; and the signature verifier's type. An evaluation whose inputs
    /// cannot be keyed bypasses the cache: a `transparency` check (a protocol value that cannot be
    /// compared), or a signature verifier that is not a `StatelessSignatureVerifier`.
    ///
    /// **What is cached** — trusted verdicts only. A refusal is recomputed every time: it has no
    /// validated path whose validity bounds its lifetime, and a peer that presents junk must not
    /// be able to fill (and so flush) the cache; only chains that actually validate under the
    /// caller's anchors and options are ever stored.
    ///
    /// **How long an entry serves** — the time is not in the key; an entry answers a verification
    /// at `time` only while `time` lies within the window where every time-dependent check gives
    /// the answer it gave when the verdict was computed: the window is cut at every edge of the
    /// validity of the validated path, of every presented certificate and of every anchor in force
    /// (RFC 5280 §4.1.2.5), and, with revocation, of every CRL's thisUpdate..nextUpdate (§6.3.3)
    /// and every OCSP response's thisUpdate..nextUpdate (or the age limit without one) and its
    /// certificates' validity (RFC 6960 §4.2.2.1) — so it never outlives the earliest notAfter or
    /// nextUpdate in force. And never longer than `maximumAge` seconds (by the cache's clock)
    /// after it was computed. An entry found outside its window is dropped.
    ///
    /// **Why a hostile peer cannot obtain a verdict for a chain that was not computed** — the index
    /// is a fast non-cryptographic hash, and a peer may well find collisions; but a hash hit is
    /// only a candidate: it is confirmed by comparing the full key — every byte of every presented
    /// certificate, of every anchor and revocation input, and every option — with the stored one.
    /// A collision therefore yields a miss (a fresh evaluation), never another chain's verdict.
    /// Entries are never shared across differing options, anchors or verifiers because all of them
    /// are part of the compared key, and an entry never outlives the validity of what it
    /// validated. What a hit returns is exactly what an evaluation of byte-identical inputs
    /// returned, at a time inside the window where every time-dependent check gave the same answer.
    ///
    /// Bounded: at most `capacity` entries, evicted by the clock (second-chance) rule.
    public final class VerdictCache: Sendable {
        /// The most entries held.
        public let capacity: Int
        /// The longest an entry serves, seconds after it was computed (by `clock`).
        public let maximumAge: Double
        private let clock: @Sendable () -> Double
        /// The index hash tests impose (to force collisions); nil: `fastIndex`, computed from
        /// the inputs without building a `Key`.
        private let hashOverride: (@Sendable (Key) -> UInt64)?
        private let state: Mutex<State>

        /// A cache of at most `capacity` trusted verdicts (at least 1), each served at most
        /// `maximumAge` seconds of wall-clock time after it was computed.
        public convenience init(capacity: Int = 1024, maximumAge: Double = 3600) {
            self.init(capacity: capacity, maximumAge: maximumAge, clock: VerdictCache.wallClock, hash: nil)
        }

        /// A cache with its own clock (for `maximumAge`) and index hash (tests force collisions;
        /// nil: the standard index, `VerdictCache.index`).
        @_spi(SigilInternal)
        public init(
            capacity: Int, maximumAge: Double, clock: @escaping @Sendable () -> Double,
            hash: (@Sendable (Key) -> UInt64)?
        ) {
            self.capacity = max(1, capacity)
            self.maximumAge = maximumAge
            self.clock = clock
            self.hashOverride = hash
            self.state = Mutex(State())
        }

        /// What lookups found so far.
        public struct Statistics: Sendable, Hashable {
            /// Evaluations answered from the cache.
            public var hits = 0
            /// Evaluations computed (the inputs were not cached, or not cacheable).
            public var misses = 0
            /// Evaluations whose inputs could not be keyed (not looked up, not stored).
            public var bypassed = 0
            /// Entries held now.
            public var count = 0
        }

        /// The counts so far.
        public var statistics: Statistics {
            state.withLock { s in
                var st = s.stats
                st.count = s.index.count
                return st
            }
        }

        /// Drops every entry (e.g. after the system's anchors changed).
        public func removeAll() {
            state.withLock { s in
                let stats = s.stats
                s = State()
                s.stats = stats
            }
        }

        /// `trust.evaluate()`, from the cache when byte-identical inputs were evaluated before and
        /// the entry's window holds `trust.time`.
        func evaluate(_ trust: CertificateTrust) -> CertificateTrust.Evaluation {
            guard Key.canKey(trust) else {
                state.withLock { $0.stats.bypassed += 1 }
                return trust.evaluateUncached()
            }
            let chain = PresentedChain.parsed(trust.certificates)
            let h = index(trust, chain)
            let now = clock()
            if let cached = lookup(trust, chain, hash: h, now: now) { return cached }
            return computeAndStore(trust, key: Key(trust, chain: chain), hash: h, now: now)
        }

        /// `trust.evaluate(der: chain)`: a repeated chain is answered from its DER alone — the
        /// key is built from `chain`'s bytes and compared with the stored certificates' DER, so
        /// a hit parses nothing. On a miss the certificates are parsed (the first that does not
        /// parse throws) and evaluated as `evaluate(_:)` does. A hit stands for a chain that
        /// parsed: an entry is stored only for certificates that parsed, and its key holds their
        /// every byte.
        func evaluate(der chain: [[UInt8]], _ trust: CertificateTrust) throws(DERError) -> CertificateTrust.Evaluation {
            guard Key.canKey(trust) else {
                state.withLock { $0.stats.bypassed += 1 }
                var t = trust
                t.certificates = try CertificateTrust.parse(chain)
                return t.evaluateUncached()
            }
            let presented = PresentedChain.der(chain)
            let now = clock()
            if let cached = lookup(trust, presented, hash: index(trust, presented), now: now) { return cached }
            var t = trust
            t.certificates = try CertificateTrust.parse(chain)
            let parsed = PresentedChain.parsed(t.certificates)
            return computeAndStore(t, key: Key(t, chain: parsed), hash: index(t, parsed), now: now)
        }

        /// The index of `trust`'s inputs with `chain` as the presented certificates: the
        /// imposed hash of their key, else `fastIndex` (the same value as `VerdictCache.index`
        /// of their key, without building it).
        private func index(_ trust: CertificateTrust, _ chain: PresentedChain) -> UInt64 {
            if let hashOverride { return hashOverride(Key(trust, chain: chain)) }
            let o = trust.options
            return Self.fastIndex(
                chain, purpose: o.purpose, additionalPurposes: trust.additionalPolicies.count, emails: o.emails.count,
                requiredEKUs: o.requiredEKUs.count, requiredKeyUsage: o.requiredKeyUsage.rawValue,
                anchorsOnly: o.anchorsOnly, maximumDepth: o.maximumDepth, crls: o.revocation?.crls.count ?? 0,
                ocspResponses: o.revocation?.ocspResponses.count ?? 0, customAnchors: o.customAnchors?.count)
        }

        /// The entry for `trust`'s inputs with `chain` as the presented certificates (indexed
        /// under `h`) if its window holds `trust.time`; an entry found outside its window is
        /// dropped. Counts the hit. The stored key is compared with the inputs in place
        /// (`Key.matches`): a lookup builds no key. The comparison runs outside the lock (an
        /// entry is immutable once stored); if the slot was reused meanwhile, the entry compared
        /// still answers for exactly these inputs, and only its bookkeeping is skipped.
        private func lookup(_ trust: CertificateTrust, _ chain: PresentedChain, hash h: UInt64, now: Double)
            -> CertificateTrust.Evaluation?
        {
            let found: (slot: Int, entry: Entry)? = state.withLock { s in
                guard let slot = s.index[h], let entry = s.entries[slot] else { return nil }
                return (slot, entry)
            }
            // A collision (another chain or other inputs under the same index) is a miss, never
            // another verdict.
            guard let (slot, entry) = found, entry.key.matches(trust, chain) else { return nil }
            let time = trust.time
            let current =
                time >= entry.notBefore && time < entry.notAfter && now - entry.computed <= maximumAge
                && now >= entry.computed
            state.withLock { s in
                let same = s.entries[slot] === entry
                if !current {
                    if same {
                        s.entries[slot] = nil
                        s.index[h] = nil
                    }
                    return
                }
                if same { s.referenced[slot] = true }
                s.stats.hits += 1
            }
            return current ? entry.evaluation : nil
        }

        /// Evaluates `trust` (keyed `key`, indexed under `h`), storing a trusted verdict whose
        /// window holds `trust.time`. Counts the miss.
        private func computeAndStore(_ trust: CertificateTrust, key: Key, hash h: UInt64, now: Double)
            -> CertificateTrust.Evaluation
        {
            let time = trust.time
            let evaluation = trust.evaluateUncached()
            guard case .trusted(let path, _, _) = evaluation.trustResult,
                case let window = Self.window(trust, path: path),
                time >= window.notBefore && time < window.notAfter
            else {
                state.withLock { $0.stats.misses += 1 }
                return evaluation
            }
            let entry = Entry(
                key: key, hash: h, evaluation: evaluation, notBefore: window.notBefore, notAfter: window.notAfter,
                computed: now)
            let capacity = self.capacity
            state.withLock { s in
                s.stats.misses += 1
                s.insert(entry, hash: h, capacity: capacity)
            }
            return evaluation
        }

        /// The times, `[notBefore, notAfter)`, at which the trusted verdict computed for `trust`
        /// at `trust.time` provably holds: no time-dependent check can answer differently inside
        /// it. Every interval a check reads — a certificate's validity, RFC 5280 §4.1.2.5, held
        /// through notAfter's whole second as `Checks.within` does; a CRL's thisUpdate..nextUpdate,
        /// §6.3.3 (a); an OCSP response's thisUpdate..nextUpdate, or thisUpdate plus the age limit,
        /// RFC 6960 §4.2.2.1 — cuts the window at its edges, on whichever side `trust.time` lies.
        /// The certificates considered: the validated path, every presented certificate, every
        /// anchor in force (another path, or a CRL signer's path, could start or stop validating),
        /// every certificate an OCSP response carries.
        @_spi(SigilInternal)
        public static func window(_ trust: CertificateTrust, path: [Certificate]) -> (
            notBefore: Double, notAfter: Double
        ) {
            let t = trust.time
            var lo = -Double.infinity
            var hi = Double.infinity
            /// The window may not straddle either edge of `[a, b)`.
            func cut(_ a: Double, _ b: Double) {
                if t < a {
                    hi = min(hi, a)
                } else if t < b {
                    lo = max(lo, a)
                    hi = min(hi, b)
                } else {
                    lo = max(lo, b)
                }
            }
            func cut(_ c: Certificate) { cut(Double(c.notBefore), Double(c.notAfter) + 1) }
            for c in path { cut(c) }
            for c in trust.certificates { cut(c) }
            for a in trust.options.customAnchors ?? [] { cut(a) }
            if CertificateTrust.usesSystemAnchors(
                customAnchorsSet: trust.options.customAnchors != nil, anchorsOnly: trust.options.anchorsOnly)
            {
                for a in trust.systemAnchors.anchors { cut(a.certificate) }
            }
            if let r = trust.options.revocation {
                for crl in r.crls {
                    let thisUpdate = Double(crl.thisUpdate)
                    if let next = crl.nextUpdate {
                        cut(thisUpdate, Double(next) + 1)
                    } else {
                        // Without nextUpdate it vouches while time − thisUpdate ≤ the limit
                        // (RevocationChecker.vouchesForGood): closed at the end.
                        cut(thisUpdate, (thisUpdate + Double(r.maximumCRLAgeWithoutNextUpdate)).nextUp)
                    }
                }
                for o in r.ocspResponses {
                    guard let basic = o.basic else { continue }  // not a usable response at any time
                    cut(Double(basic.producedAt), .infinity)
                    for c in basic.certificates { cut(c) }
                    for single in basic.responses {
                        let thisUpdate = Double(single.thisUpdate)
                        if let next = single.nextUpdate {
                            cut(thisUpdate, Double(next) + 1)
                        } else {
                            // Fresh while time − thisUpdate ≤ the limit (OCSPChecker): closed at the end.
                            cut(thisUpdate, (thisUpdate + Double(r.maximumOCSPAgeWithoutNextUpdate)).nextUp)
                        }
                    }
                }
            }
            return (lo, hi)
        }

        /// The standard index of a key: FNV-1a over what tells chains apart cheaply — each
        /// certificate's length and its last 32 bytes (its signature's, which the issuer's key
        /// makes unpredictable) — and the options that usually differ (the host, the counts).
        /// Only an index: every hit is confirmed by comparing the whole key, and keys that share
        /// an index replace each other.
        @_spi(SigilInternal)
        public static let index: @Sendable (Key) -> UInt64 = { key in
            let o = key.settings
            return fastIndex(
                key.chain, purpose: o.purpose.purpose, additionalPurposes: o.additionalPurposes.count,
                emails: o.emails.count,
                requiredEKUs: o.requiredEKUs.count, requiredKeyUsage: o.requiredKeyUsage, anchorsOnly: o.anchorsOnly,
                maximumDepth: o.maximumDepth, crls: key.crls.count, ocspResponses: key.ocspResponses.count,
                customAnchors: key.customAnchors?.count)
        }

        /// `index` from the pieces it reads, so that a lookup computes it from the inputs
        /// without building a `Key`.
        static func fastIndex(
            _ chain: PresentedChain, purpose: VerificationPurpose, additionalPurposes: Int, emails: Int,
            requiredEKUs: Int, requiredKeyUsage: UInt16, anchorsOnly: Bool, maximumDepth: Int?, crls: Int,
            ocspResponses: Int, customAnchors: Int?
        ) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            @inline(__always) func mix(_ v: UInt64) { h = (h ^ v) &* 0x0000_0100_0000_01b3 }
            /// The length, then the bytes from `from`, 8 at a time where it can.
            @inline(__always) func mixBytes(_ b: UnsafeRawBufferPointer, from: Int) {
                mix(UInt64(b.count))
                var i = from
                while i + 8 <= b.count {
                    mix(b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    i += 8
                }
                while i < b.count {
                    mix(UInt64(b[i]))
                    i += 1
                }
            }
            for i in 0..<chain.count { chain.withDER(i) { mixBytes($0, from: max(0, $0.count - 32)) } }
            // The options that usually differ between callers sharing a cache (the host above
            // all); the rest (algorithms, policies, budget) only in the full comparison.
            if let host = purpose.host {
                var host = host
                host.withUTF8 { mixBytes(UnsafeRawBufferPointer($0), from: 0) }
            }
            mix(UInt64(purpose.isServer ? 1 : 0) | UInt64(additionalPurposes) << 1 | UInt64(emails) << 8)
            mix(UInt64(requiredEKUs) | UInt64(requiredKeyUsage) << 8 | UInt64(anchorsOnly ? 1 : 0) << 24)
            mix(UInt64(bitPattern: Int64(maximumDepth ?? -1)))
            mix(UInt64(crls) &* 31 &+ UInt64(ocspResponses))
            mix(customAnchors.map { UInt64($0) &+ 1 } ?? 0)
            return h
        }

        /// The identity of `verifier`'s type when it is a `StatelessSignatureVerifier` (its
        /// verdicts depend on the certificates alone, so the type identifies them: the key's
        /// verifier component), else nil: its evaluations are not cached.
        static func statelessType(of verifier: any CertificateSignatureVerifier) -> ObjectIdentifier? {
            guard let stateless = verifier as? any StatelessSignatureVerifier else { return nil }
            return ObjectIdentifier(type(of: stateless))
        }

        static let wallClock: @Sendable () -> Double = {
            #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)
                return WallClock.now()
            #else
                return 0
            #endif
        }

        /// Everything an evaluation's verdict depends on except the time (see the type's
        /// documentation); compared whole to confirm a hit.
        public final class Key: Sendable, Equatable {
            /// The presented certificates, in order (compared by their DER; held, not copied).
            let chain: PresentedChain
            /// Every option but the time, the anchors' and revocation data's bytes.
            let settings: Settings
            /// The caller's anchors (compared by their DER); nil when never set.
            let customAnchors: [Certificate]?
            /// The CRLs given (compared by their DER).
            let crls: [CertificateList]
            /// The OCSP responses given (compared by their DER).
            let ocspResponses: [OCSPResponse]
            /// The system's anchors, when they count (retained: the storage's identity proves equality).
            let systemAnchors: [TrustAnchor]?

            /// `trust`'s inputs can be keyed: no `transparency` check (a protocol value that
            /// cannot be compared) and a `StatelessSignatureVerifier` (its type, decided when
            /// the verifier was set by `statelessType(of:)`, not cast again per lookup).
            static func canKey(_ trust: CertificateTrust) -> Bool {
                guard case .none = trust.transparency else { return false }
                return trust.statelessVerifierType != nil
            }

            /// The key of `trust`'s inputs; nil when they cannot be keyed.
            convenience init?(_ trust: borrowing CertificateTrust) {
                guard Key.canKey(trust) else { return nil }
                self.init(trust, chain: .parsed(trust.certificates))
            }

            /// The key of `trust`'s inputs with `der` (leaf first) as the presented
            /// certificates instead of `trust.certificates`, unparsed; nil when they cannot be keyed.
            convenience init?(_ trust: borrowing CertificateTrust, der: [[UInt8]]) {
                guard Key.canKey(trust) else { return nil }
                self.init(trust, chain: .der(der))
            }

            /// The key of `trust`'s inputs (`canKey(trust)` holds) with `chain` as the
            /// presented certificates.
            init(_ trust: borrowing CertificateTrust, chain: PresentedChain) {
                let o = trust.options
                self.chain = chain
                customAnchors = o.customAnchors
                systemAnchors =
                    CertificateTrust.usesSystemAnchors(
                        customAnchorsSet: o.customAnchors != nil, anchorsOnly: o.anchorsOnly)
                    ? trust.systemAnchors.anchors : nil
                crls = o.revocation?.crls ?? []
                ocspResponses = o.revocation?.ocspResponses ?? []
                settings = Settings(
                    purpose: ExactPurpose(purpose: o.purpose),
                    additionalPurposes: trust.additionalPolicies.map { ExactPurpose(purpose: $0) },
                    emails: o.emails.map { ExactText(text: $0) },
                    requiredEKUs: o.requiredEKUs,
                    requiredKeyUsage: o.requiredKeyUsage.rawValue, maximumDepth: o.maximumDepth,
                    algorithms: o.algorithms,
                    certificatePolicies: o.certificatePolicies, budget: o.budget, anchorsOnly: o.anchorsOnly,
                    revocation: o.revocation.map {
                        RevocationSettings(
                            policy: $0.policy, scope: $0.scope, useDeltaCRLs: $0.useDeltaCRLs,
                            maximumOCSPAgeWithoutNextUpdate: $0.maximumOCSPAgeWithoutNextUpdate,
                            maximumCRLAgeWithoutNextUpdate: $0.maximumCRLAgeWithoutNextUpdate,
                            crlCount: $0.crls.count, ocspCount: $0.ocspResponses.count,
                            crlSignerChain: $0.crlSignerChain.map(\.der))
                    },
                    verifier: trust.statelessVerifierType!)
            }

            /// `self == Key(trust, chain: chain)`, compared in place: every byte of every
            /// presented certificate, anchor and revocation input, every option — the same
            /// components as `==`, read from `trust` without building its key.
            func matches(_ trust: CertificateTrust, _ chain: PresentedChain) -> Bool {
                guard Key.canKey(trust), settings.verifier == trust.statelessVerifierType,
                    settings.matches(trust.options, additionalPurposes: trust.additionalPolicies),
                    self.chain.hasSameBytes(as: chain), sameOptionalDER(customAnchors, trust.options.customAnchors)
                else { return false }
                if let r = trust.options.revocation {
                    guard sameDER(crls, r.crls, \.der), sameDER(ocspResponses, r.ocspResponses, \.der) else {
                        return false
                    }
                } else {
                    guard crls.isEmpty, ocspResponses.isEmpty else { return false }
                }
                let o = trust.options
                let system =
                    CertificateTrust.usesSystemAnchors(
                        customAnchorsSet: o.customAnchors != nil, anchorsOnly: o.anchorsOnly)
                    ? trust.systemAnchors.anchors : nil
                return sameAnchors(systemAnchors, system)
            }

            /// Whole-key equality: every byte of every certificate, anchor and revocation input,
            /// every option.
            public static func == (a: Key, b: Key) -> Bool {
                a.settings == b.settings && a.chain.hasSameBytes(as: b.chain) && sameDER(a.crls, b.crls, \.der)
                    && sameDER(a.ocspResponses, b.ocspResponses, \.der)
                    && sameOptionalDER(a.customAnchors, b.customAnchors)
                    && sameAnchors(a.systemAnchors, b.systemAnchors)
            }
        }

        /// The presented certificates of a key: parsed (`evaluate()`), or as DER
        /// (`evaluate(der:)`, looked up before anything is parsed). Compared by the bytes either
        /// way, so a DER lookup finds the entry a parsed evaluation stored.
        enum PresentedChain: Sendable {
            case parsed([Certificate])
            case der([[UInt8]])

            var count: Int {
                switch self {
                case .parsed(let c): return c.count
                case .der(let d): return d.count
                }
            }

            /// The DER of certificate `i`.
            func der(_ i: Int) -> [UInt8] {
                switch self {
                case .parsed(let c): return c[i].der
                case .der(let d): return d[i]
                }
            }

            /// `body` over the DER of certificate `i`.
            @inline(__always)
            func withDER<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
                switch self {
                case .parsed(let c): return c[i].der.withUnsafeBytes(body)
                case .der(let d): return d[i].withUnsafeBytes(body)
                }
            }

            /// The same certificates, byte for byte, in the same order.
            func hasSameBytes(as other: PresentedChain) -> Bool {
                guard count == other.count else { return false }
                for i in 0..<count where !sameBytes(der(i), other.der(i)) { return false }
                return true
            }
        }

        /// Caller text (an e-mail address) as the key holds it: compared and hashed by its
        /// UTF-8 bytes. Swift's `String ==` is canonical equivalence ("\u{212A}im" == "Kim",
        /// KELVIN SIGN against K), while the checks the verdict comes from read bytes (RFC 5280
        /// §7.5: the local part exactly; a host must be an LDH name or an address): a key
        /// comparing Strings would hand a name the verifier refuses the verdict of one it
        /// accepts.
        struct ExactText: Sendable, Hashable {
            let text: String
            static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
            func hash(into h: inout Hasher) {
                h.combine(text.utf8.count)
                for b in text.utf8 { h.combine(b) }
            }
            /// Byte-for-byte equal to `other`.
            func matches(_ other: String) -> Bool { text.utf8.elementsEqual(other.utf8) }
        }

        /// A purpose as the key holds it: `.server`'s host compared by its bytes (`ExactText`),
        /// the other purposes as they are (no text in them).
        struct ExactPurpose: Sendable, Hashable {
            let purpose: VerificationPurpose
            static func == (a: ExactPurpose, b: ExactPurpose) -> Bool { a.matches(b.purpose) }
            func hash(into h: inout Hasher) {
                switch purpose {
                case .server(let host):
                    h.combine(0)
                    if let host { ExactText(text: host).hash(into: &h) } else { h.combine(-1) }
                default: h.combine(purpose)
                }
            }
            /// `other` is this purpose, its host (if any) byte-for-byte equal.
            func matches(_ other: VerificationPurpose) -> Bool {
                switch (purpose, other) {
                case (.server(let a), .server(let b)):
                    guard let a, let b else { return a == nil && b == nil }
                    return ExactText(text: a).matches(b)
                case (.server, _), (_, .server): return false
                default: return purpose == other
                }
            }
        }

        /// The options that are neither bytes nor the time (text kept as its bytes).
        struct Settings: Sendable, Hashable {
            let purpose: ExactPurpose
            let additionalPurposes: [ExactPurpose]
            let emails: [ExactText]
            let requiredEKUs: [[UInt8]]
            let requiredKeyUsage: UInt16
            let maximumDepth: Int?
            let algorithms: AlgorithmPolicy
            let certificatePolicies: CertificatePolicyOptions
            let budget: VerificationBudget
            let anchorsOnly: Bool
            let revocation: RevocationSettings?
            let verifier: ObjectIdentifier

            /// Equal to the settings a key of `o` (with `additionalPurposes`) holds, field for
            /// field as the synthesized `==` compares them (the verifier aside: `Key.matches`).
            func matches(_ o: VerificationOptions, additionalPurposes other: [VerificationPurpose]) -> Bool {
                guard purpose.matches(o.purpose), additionalPurposes.count == other.count,
                    zip(additionalPurposes, other).allSatisfy({ $0.matches($1) }), emails.count == o.emails.count,
                    zip(emails, o.emails).allSatisfy({ $0.matches($1) }),
                    requiredEKUs == o.requiredEKUs, requiredKeyUsage == o.requiredKeyUsage.rawValue,
                    maximumDepth == o.maximumDepth, algorithms == o.algorithms,
                    certificatePolicies == o.certificatePolicies, budget == o.budget, anchorsOnly == o.anchorsOnly
                else { return false }
                guard let revocation else {
                    if case .none = o.revocation { return true }
                    return false
                }
                guard let other = o.revocation else { return false }
                return revocation.matches(other)
            }
        }

        /// `RevocationOptions` but its data.
        struct RevocationSettings: Sendable, Hashable {
            let policy: RevocationOptions.Policy
            let scope: RevocationOptions.Scope
            let useDeltaCRLs: Bool
            let maximumOCSPAgeWithoutNextUpdate: Int64
            let maximumCRLAgeWithoutNextUpdate: Int64
            let crlCount: Int
            let ocspCount: Int
            let crlSignerChain: [[UInt8]]

            /// Equal to the settings of `r`, field for field (the signer chain by its DER).
            func matches(_ r: RevocationOptions) -> Bool {
                policy == r.policy && scope == r.scope && useDeltaCRLs == r.useDeltaCRLs
                    && maximumOCSPAgeWithoutNextUpdate == r.maximumOCSPAgeWithoutNextUpdate
                    && maximumCRLAgeWithoutNextUpdate == r.maximumCRLAgeWithoutNextUpdate
                    && crlCount == r.crls.count && ocspCount == r.ocspResponses.count
                    && crlSignerChain.count == r.crlSignerChain.count
                    && zip(crlSignerChain, r.crlSignerChain).allSatisfy { sameBytes($0, $1.der) }
            }
        }

        /// A stored verdict (a reference: taking it out of the table is one retain).
        final class Entry: Sendable {
            let key: Key
            let hash: UInt64
            let evaluation: CertificateTrust.Evaluation
            let notBefore: Double
            let notAfter: Double
            let computed: Double

            init(
                key: Key, hash: UInt64, evaluation: CertificateTrust.Evaluation, notBefore: Double, notAfter: Double,
                computed: Double
            ) {
                self.key = key
                self.hash = hash
                self.evaluation = evaluation
                self.notBefore = notBefore
                self.notAfter = notAfter
                self.computed = computed
            }
        }

        struct State: Sendable {
            var index: [UInt64: Int] = [:]
            var entries: [Entry?] = []
            var referenced: [Bool] = []
            var hand = 0
            var stats = Statistics()

            /// Stores `entry` under `hash`: over an entry already indexed there (the index keeps
            /// one entry per hash; a colliding chain replaces it), else in a free slot, else in
            /// the slot the clock hand evicts (second chance: a slot used since the hand last
            /// passed is spared once).
            mutating func insert(_ entry: Entry, hash: UInt64, capacity: Int) {
                if let slot = index[hash] {
                    entries[slot] = entry
                    referenced[slot] = false
                    return
                }
                let slot: Int
                if entries.count < capacity {
                    entries.append(nil)
                    referenced.append(false)
                    slot = entries.count - 1
                } else if let free = entries.firstIndex(where: { $0 == nil }) {
                    slot = free
                } else {
                    while referenced[hand] {
                        referenced[hand] = false
                        hand = (hand + 1) % capacity
                    }
                    slot = hand
                    hand = (hand + 1) % capacity
                    if let old = entries[slot] { index[old.hash] = nil }
                }
                entries[slot] = entry
                referenced[slot] = false
                index[hash] = slot
            }
        }
    }

    /// Equal byte strings, array by array: the lengths, then 8 bytes at a time (the same storage
    /// short-circuits).
    private func sameDER<T>(_ a: [T], _ b: [T], _ der: (T) -> [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where !sameBytes(der(a[i]), der(b[i])) { return false }
        return true
    }

    private func sameOptionalDER(_ a: [Certificate]?, _ b: [Certificate]?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return sameDER(x, y, \.der)
        default: return false
        }
    }

    private func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                if x.baseAddress == y.baseAddress || x.isEmpty { return true }
                #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
                    // The C library's comparison: vectorised, several times the word loop below
                    // on certificate-sized inputs.
                    return memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
                #endif
                var i = 0
                while i + 8 <= x.count {
                    if x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        != y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    {
                        return false
                    }
                    i += 8
                }
                while i < x.count {
                    if x[i] != y[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }

    /// The same anchors: the same retained storage (an array's storage never changes while a
    /// reference to it is held: a mutation copies), else anchor by anchor (DER and source).
    private func sameAnchors(_ a: [TrustAnchor]?, _ b: [TrustAnchor]?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            guard x.count == y.count else { return false }
            let same = x.withUnsafeBufferPointer { p in
                y.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress }
            }
            if same { return true }
            // Source, trust settings and bytes: each decides whether the anchor ends a path.
            for i in x.indices
            where x[i].source != y[i].source || x[i].trustSettings != y[i].trustSettings
                || !sameBytes(x[i].certificate.der, y[i].certificate.der)
            {
                return false
            }
            return true
        default: return false
        }
    }
#endif
