extension CheckUnit {
    /// Certificate Transparency, judged on a trusted path by the module Sigil through the seam
    /// `CertificateTransparencyCheck` (Policy/TransparencySeam.swift; the SCT code is Sigil's
    /// CT/): SigilTrust knows no SCT, log list or log signature.
    static let certificateTransparency = CheckUnit(
        .certificateTransparency, "certificate transparency", clauses: "RFC 6962; Apple's and Chrome's CT policies",
        produces: [.certificateTransparency])
}
