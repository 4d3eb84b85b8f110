#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

// Only where a C library provides the clock (the same guards as SystemTrustStore.swift): on a
// platform without one (embedded, bare metal) there is no `WallClock`, and callers pass the
// time explicitly, as every API below the outermost ones already requires.
#if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(Android)

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
#endif
