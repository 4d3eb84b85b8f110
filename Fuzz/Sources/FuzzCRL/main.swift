// libFuzzer entry point: see FuzzSupport/RevocationWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CRLWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
