// libFuzzer entry point: see FuzzSupport/CTWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CTWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
