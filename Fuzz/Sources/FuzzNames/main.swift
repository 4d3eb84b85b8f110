// libFuzzer entry point: see FuzzSupport/NamesWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    NamesWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
