#if NIO
    import Sigil

    extension SigilServerTrustVerifier {
        /// `certificateTransparency` with the SCTs `extras` delivered (the TLS extension's list
        /// and a stapled OCSP response's), or nil when CT is not configured.
        func transparency(_ extras: HandshakeExtras?) -> CTOptions? {
            guard let ct = certificateTransparency else { return nil }
            guard let extras else { return ct }
            return ct.addingDeliveredSCTs(
                tlsSCTList: extras.signedCertificateTimestamps, stapledOCSPResponse: extras.stapledOCSPResponse)
        }
    }
#endif
