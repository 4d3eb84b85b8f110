#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The current time, for the outermost APIs only (`CertificateTrust`, `SecurityPolicy`'s
/// convenience overloads, the CLI). Everything below them takes the time as a parameter
/// (every input from the environment is explicit), so tests and callers checking a past signature stay deterministic.
public enum WallClock {
    /// Seconds since the Unix epoch (UTC), with sub-second precision.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
