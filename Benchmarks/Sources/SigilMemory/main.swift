// Heap retained by the system bundle loaded as trust anchors, per library: glibc
// `mallinfo2().uordblks` (bytes in use) before and after building the store, with the input
// bytes allocated beforehand and everything transient released. Prints one line per library:
//   memory <library> <retained-bytes> <certificates> <total-DER-bytes>
// run.sh turns these into the "Memory" table (goal: Sigil ≤ 1.2 × the DER size).
import COpenSSL
import Foundation
import Sigil
import SwiftASN1
import X509

typealias SigilCertificate = Sigil.Certificate

func inUse() -> Int { Int(sb_heap_in_use()) }

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/etc/ssl/certs/ca-certificates.crt"
guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
let bundle = [UInt8](data)
let bundleString = String(decoding: bundle, as: UTF8.self)
let ders = try PEM.decodeBlocks(bundle).certificates
let derTotal = ders.reduce(0) { $0 + $1.count }

@inline(never) func sigilStore() -> TrustStore {
    var store = TrustStore()
    _ = store.add(contentsOf: bundle, source: .system)
    return store
}

@inline(never) func swiftCertificatesStore() -> (CertificateStore, Int) {
    let docs = try! PEMDocument.parseMultiple(pemString: bundleString)
    let certs = docs.compactMap { try? X509.Certificate(pemDocument: $0) }
    return (CertificateStore(certs), certs.count)
}

// Warm up every code path once (lazy globals, metadata caches, OpenSSL's error strings).
do {
    _ = sigilStore()
    _ = swiftCertificatesStore()
    var n: Int32 = 0
    let s = bundle.withUnsafeBufferPointer { sb_store_new_from_pem($0.baseAddress, $0.count, &n) }
    sb_store_free(s)
}

do {
    let before = inUse()
    let store = sigilStore()
    let after = inUse()
    print("memory Sigil \(after - before) \(store.count) \(derTotal)")
    withExtendedLifetime(store) {}
}
do {
    let before = inUse()
    let (store, count) = swiftCertificatesStore()
    let after = inUse()
    print("memory SwiftCertificates \(after - before) \(count) \(derTotal)")
    withExtendedLifetime(store) {}
}
do {
    var n: Int32 = 0
    let before = inUse()
    let store = bundle.withUnsafeBufferPointer { sb_store_new_from_pem($0.baseAddress, $0.count, &n) }
    let after = inUse()
    print("memory OpenSSL \(after - before) \(n) \(derTotal)")
    sb_store_free(store)
}
