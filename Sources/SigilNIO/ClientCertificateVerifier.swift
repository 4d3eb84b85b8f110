#if NIO
import NIOCore
import NIOSSL
import Sigil

/// Judges a client certificate inside a server handshake (mutual TLS): the verification
/// callback for `NIOSSLServerHandler(context:customVerificationCallbackWithMetadata:)`.
///
/// The client's chain must validate to one of `anchors` (anchors only: the system store is
/// not used unless you add it to `anchors`) under the client profile (`CertificateTrust.Policy
/// .sslClient`: clientAuth extended key usage when the leaf has one, key usage, CA/B profile
/// where it applies), at the time source's time; then, when the allow-lists are not empty, the
/// leaf must carry one of `allowedEmails` (subjectAltName rfc822Name, RFC 5280 §4.2.1.6) or have
/// one of `allowedSubjects` as its subject (RFC 4514 text, e.g. "CN=alice,O=Example").
///
/// The server's `TLSConfiguration` must ask for a certificate: `certificateVerification =
/// .noHostnameVerification` (or `.fullVerification`); a client that sends none is refused by
/// NIOSSL before the callback. Use `makeServerHandlers` so the pipeline sees the reason.
public struct SigilClientCertificateVerifier: Sendable {
    public var anchors: TrustStore
    public var allowedEmails: [String] = []
    public var allowedSubjects: [String] = []
    public var options: VerificationOptions
    public var signatureVerifier: any CertificateSignatureVerifier = SigilSignatureVerifier()
    public var time: @Sendable () -> Double = { WallClock.now() }
    public var observer: (@Sendable (SigilTLSVerdict) -> Void)?
    public var handshakeExtras: (@Sendable () -> HandshakeExtras)?
    public var revocationCheck: RevocationHook?

    public init(anchors: [Certificate]) {
        var store = TrustStore()
        for a in anchors { store.add(a, source: .custom) }
        self.init(anchors: store)
    }

    public init(anchors: TrustStore) {
        self.anchors = anchors
        self.options = VerificationOptions(kind: .client, time: 0)
    }

    public func makeCallback(verdicts: SigilTLSVerdictBox? = nil) -> NIOSSLCustomVerificationCallbackWithMetadata {
        let me = self
        return { nioChain, promise in
            let verdict = me.verify(nioChain)
            Presented.complete(verdict, nio: nioChain, box: verdicts, observer: me.observer, promise: promise)
        }
    }

    /// A server handler wired to this verifier, and the handler surfacing Sigil's reason.
    public func makeServerHandlers(context: NIOSSLContext) -> [ChannelHandler] {
        let box = SigilTLSVerdictBox()
        let tls = NIOSSLServerHandler(context: context, customVerificationCallbackWithMetadata: makeCallback(verdicts: box))
        return [tls, SigilTLSErrorHandler(verdicts: box)]
    }

    public func verify(_ chain: [NIOSSLCertificate]) -> SigilTLSVerdict {
        let now = time()
        switch Presented.parse(chain) {
        case .failure(let e): return SigilTLSVerdict(presented: [], error: e, name: nil, time: now)
        case .success(let presented):
            return Presented.revocation(revocationCheck, extras: handshakeExtras, verdict: verify(certificates: presented, at: now))
        }
    }

    public func verify(certificates presented: [Certificate], at now: Double) -> SigilTLSVerdict {
        guard let leaf = presented.first else {
            return SigilTLSVerdict(presented: [], error: SigilTLSVerificationError(
                reason: .noCertificate, message: "no client certificate", checkedName: nil), name: nil, time: now)
        }
        var o = options
        o.time = now
        // The one evaluator (`CertificateTrust`), with exactly these anchors and options (the
        // policy `options.kind` names: `.sslClient` by default).
        let e = CertificateTrust(certificates: presented, anchors: anchors, requirements: o,
                                 signatureVerifier: signatureVerifier).evaluate()
        let r = e.trustResult
        guard e.isTrusted else {
            let f = e.failures
            return SigilTLSVerdict(presented: presented, error: SigilTLSVerificationError(
                reason: .notTrusted(f.first?.kind ?? .unknownIssuer), failures: f,
                message: f.first.map { "\($0.kind.name): \($0.message)" } ?? "not trusted", checkedName: nil),
                name: nil, time: now, trust: e, result: r)
        }
        let path = e.chain
        if !allowedEmails.isEmpty || !allowedSubjects.isEmpty {
            let byEmail = allowedEmails.contains { (try? matchesEmail(leaf, $0)) == true }
            let subject = leaf.subject.rfc4514String
            let bySubject = allowedSubjects.contains(subject)
            if !byEmail && !bySubject {
                return SigilTLSVerdict(presented: presented, error: SigilTLSVerificationError(
                    reason: .notAllowed, message: "client certificate \(subject) is valid but not on the allow-list", checkedName: nil),
                    name: nil, time: now, trust: e, result: r)
            }
        }
        return SigilTLSVerdict(presented: presented, path: path, error: nil, name: nil, time: now, trust: e, result: r)
    }
}
#endif
