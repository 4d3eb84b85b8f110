// libFuzzer entry point: see FuzzSupport/TrustStoreWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    TrustStoreWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

// Coverage builds (Fuzz/coverage.sh: -DSIGIL_FUZZ_STANDALONE -parse-as-library): a replay driver.
#if SIGIL_FUZZ_STANDALONE
    @main struct StandaloneReplay { static func main() { FuzzStandalone.main(fuzz) } }
#endif
