import SigilX509

/// SHA-256 fingerprints for reports and pins.
public enum Fingerprint {
    /// Lowercase hex SHA-256 of `bytes`, or nil while no SHA-256 engine is wired in.
    public static func sha256Hex<S: Sequence>(_ bytes: S) -> String? where S.Element == UInt8 {
        nil // SHA-256 arrives with the crypto layer (issue 3).
    }
}
