import SigilCrypto
import SigilX509

/// SHA-256 fingerprints for reports and pins.
public enum Fingerprint {
    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex<S: Sequence>(_ bytes: S) -> String? where S.Element == UInt8 {
        SHA256.hash(bytes).hex
    }
}
