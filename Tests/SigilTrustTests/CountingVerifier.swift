import Foundation
import Sigil

/// Sigil's own signature verifier, counting the signature checks the path builder asks for
/// (shared by the pool and budget tests of this target).
final class CountingVerifier: CertificateSignatureVerifier, @unchecked Sendable {
    let inner = SigilSignatureVerifier()
    let lock = NSLock()
    var calls = 0
    func verifySignature(of certificate: Certificate, issuer: Certificate) -> SignatureVerdict {
        lock.lock()
        calls += 1
        lock.unlock()
        return inner.verifySignature(of: certificate, issuer: issuer)
    }
}
