// libFuzzer entry point: Sigil's DER reader against apple/swift-asn1
// (see FuzzDifferential/DifferentialDER.swift).
import FuzzDifferential

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    DifferentialDER.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
