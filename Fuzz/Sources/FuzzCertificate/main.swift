// libFuzzer entry point: see FuzzSupport/CertificateWalk.swift.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    CertificateWalk.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
