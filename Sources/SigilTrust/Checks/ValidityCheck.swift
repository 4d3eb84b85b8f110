import SigilDER
import SigilX509

extension CheckUnit {
    /// Validity periods of every certificate, the anchor's included (limbo
    /// rfc5280::validity::expired-root; OpenSSL, Go and Apple reject expired roots).
    static let validity = CheckUnit(
        .validity, "validity", clauses: "RFC 5280 §4.1.2.5, §6.1.3 (a)(2)", produces: [.expired, .notYetValid],
        runsOnMalformed: true)
}

extension Checks {
    /// The validity unit's check of any certificate (leaf, intermediate or anchor).
    static func validityFailures(_ c: Certificate, _ options: VerificationOptions, _ out: inout [TrustFailure]) {
        if let f = within(c, options.time) { out.append(f) }
    }

    static func within(_ c: Certificate, _ time: Double) -> TrustFailure? {
        // RFC 5280 §4.1.2.5: valid from notBefore through notAfter, both inclusive. Times are
        // whole seconds; a fractional validation time past notAfter by less than a second is
        // still within the last encoded second (limbo notafter-fractional).
        // Both tests are written so that a time that is not a number (NaN, which compares false
        // with everything) fails them: such a time lies within no validity period, and "not
        // before notBefore" must hold positively for the certificate to be valid (fail closed;
        // a NaN time once made every expired certificate valid).
        if !(time >= Double(c.notBefore)) {
            return TrustFailure(
                .notYetValid, at: 0, context: .validity(notBefore: c.notBefore, notAfter: c.notAfter, time: time))
        }
        if !(time < Double(c.notAfter) + 1) {
            return TrustFailure(
                .expired, at: 0, context: .validity(notBefore: c.notBefore, notAfter: c.notAfter, time: time))
        }
        return nil
    }
}
