import Sigil

/// FuzzInspect: the lenient inspection reader (`LenientCertificate`) and both report renderers
/// on arbitrary bytes. Besides "no crash, no hang, no leak", it checks the separation from the
/// trust path: the lenient view carries a strict `Certificate` exactly when the strict parser
/// accepts the same bytes (a certificate only the lenient reader accepts is never handed to
/// anything that could trust it), and every warning's offset lies inside the input.
public enum InspectWalk {
    public static func run(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        let strict = try? Certificate(der: bytes)
        guard let cert = try? LenientCertificate(der: bytes) else {
            // The lenient reader reads everything the strict one does.
            precondition(strict == nil, "strict parser accepted what the lenient reader refused")
            return
        }
        precondition(
            (cert.strictCertificate == nil) == (strict == nil), "strictCertificate disagrees with the strict parser")
        if let strict { precondition(cert.strictCertificate! == strict) }
        var report = CertificateReport(cert, now: 1_767_225_600)
        _ = report.json(sha256: nil, spkiSha256: nil).serialized()
        _ = report.text(sha256: nil, spkiSha256: nil)
        for w in report.warnings {
            precondition(w.offset >= 0 && w.offset <= bytes.count, "warning offset outside the input: \(w)")
        }
    }
}
