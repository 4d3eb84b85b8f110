// libFuzzer entry point: see FuzzSupport/CertificateWalk.swift (PEMWalk).
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PEMWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
