// libFuzzer entry point: see FuzzSupport/InspectWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    InspectWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
