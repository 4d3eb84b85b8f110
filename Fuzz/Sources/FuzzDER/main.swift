// libFuzzer entry point: the DER walk (see FuzzSupport/DERWalk.swift).
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    DERWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
