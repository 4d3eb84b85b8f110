// libFuzzer entry point: see FuzzSupport/VerifyWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    VerifyWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
