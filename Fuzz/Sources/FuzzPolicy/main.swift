// libFuzzer entry point: see FuzzSupport/PolicyWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PolicyWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
