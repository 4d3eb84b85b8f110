// Replay driver for builds without libFuzzer (Fuzz/coverage.sh): with -DSIGIL_FUZZ_STANDALONE
// each target's main.swift calls `FuzzStandalone.main`, which runs its LLVMFuzzerTestOneInput
// on every file named on the command line (a directory: every file in it, not recursive).

@_spi(SigilInternal) import SigilTrust

#if canImport(Glibc)
    import Glibc
#endif

public enum FuzzStandalone {
    public static func main(_ body: (UnsafePointer<UInt8>, Int) -> CInt) {
        var count = 0
        for arg in CommandLine.arguments.dropFirst() where !arg.hasPrefix("-") {
            var st = stat()
            guard stat(arg, &st) == 0 else { continue }
            let paths = (st.st_mode & S_IFMT) == S_IFDIR ? FuzzFiles.list(arg).map { arg + "/" + $0 } : [arg]
            for path in paths {
                guard let bytes = FuzzFiles.read(path) else { continue }
                // A valid pointer even for an empty file (libFuzzer passes size 0 too).
                let buffer = bytes.isEmpty ? [0] : bytes
                _ = buffer.withUnsafeBufferPointer { body($0.baseAddress!, bytes.count) }
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}
