import Foundation
import Sigil

/// `sigil inspect --json`: JSON Lines from a stream of any size.
///
/// Each input (a file, or `-` for standard input) is read through `ObjectStream` — a fixed read
/// buffer plus one object at a time — so memory does not grow with the input; every
/// certificate becomes one line written straight into a byte buffer (`JSONWriter`), flushed
/// to standard output in large writes. With `--jobs N` the objects are handed out in batches
/// to N threads, each rendering a contiguous run into its own buffer; the buffers are written
/// in input order, so the output is the same as with one job.
struct InspectStreamer {
    let now: Int64
    let jobs: Int
    /// Objects may be this large (the whole-input limit of the former reader: a big CRL).
    static let maximumObjectSize = PEM.maximumInputSize
    /// A batch for the workers ends at this many objects or bytes.
    static let batchObjects = 512
    static let batchBytes = 8 << 20

    var out = OutputBuffer(fd: 1)
    var failed = false

    /// What one object became: a line of JSON (possibly empty), an error for standard error.
    struct Rendered {
        var json: [UInt8] = []
        var error: String?
    }

    struct Item {
        var object: ObjectStream.Object
        var index: Int
    }

    /// Inspects `path` ("-": standard input); false when it cannot be opened.
    mutating func inspect(_ path: String) -> Bool {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        if fd < 0 { return false }
        defer { if fd != 0 { close(fd) } }
        var size: Int?
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { size = Int(st.st_size) }
        var progress = Progress(name: path == "-" ? "standard input" : path, size: size)
        var stream = ObjectStream(maximumObjectSize: Self.maximumObjectSize) { buffer in
            while true {
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        var index = 0
        var reported = 0
        var batch: [Item] = []
        var batchBytes = 0
        var streamError: DERError?
        while true {
            let object: ObjectStream.Object?
            do {
                object = try stream.next()
            } catch {
                // The stream reports a bad PEM block and goes on (a DER error ends it).
                index += 1
                flush(&batch, path: path, reported: &reported)
                batchBytes = 0
                streamError = error
                printError("sigil: \(path) [\(index)]: \(error)")
                failed = true
                continue
            }
            guard let object else { break }
            index += 1
            batchBytes += object.der.count
            batch.append(Item(object: object, index: index))
            if batch.count >= Self.batchObjects * jobs || batchBytes >= Self.batchBytes {
                flush(&batch, path: path, reported: &reported)
                batchBytes = 0
                progress.update(objects: index, bytes: stream.bytesRead)
            }
        }
        flush(&batch, path: path, reported: &reported)
        progress.finish()
        if reported == 0 && streamError == nil {
            // No certificate, CRL or OCSP response (PEM with only other blocks, or not PEM/DER).
            printError("sigil: \(path): \(DERError(.noCertificate, at: 0))")
            failed = true
        }
        out.flush()
        return true
    }

    /// Renders the batch (in parallel when `jobs` > 1) and writes it in order.
    mutating func flush(_ batch: inout [Item], path: String, reported: inout Int) {
        if batch.isEmpty { return }
        let items = batch
        batch.removeAll(keepingCapacity: true)
        let now = self.now
        var results: [[Rendered]]
        if jobs <= 1 || items.count < 2 {
            results = [items.map { Self.render($0, path: path, now: now) }]
        } else {
            let workers = min(jobs, items.count)
            let per = (items.count + workers - 1) / workers
            let slots = Slots(count: workers)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let lo = w * per
                let hi = min(items.count, lo + per)
                // Each worker writes only its own slot.
                if lo < hi { slots.pointer[w] = items[lo..<hi].map { Self.render($0, path: path, now: now) } }
            }
            results = Array(slots.pointer)
        }
        for run in results {
            for r in run {
                if let e = r.error {
                    out.flush()
                    printError(e)
                    failed = true
                }
                if !r.json.isEmpty {
                    out.append(r.json)
                    reported += 1
                }
            }
        }
    }

    /// One object's JSON line: a certificate (PEM certificate labels, or DER), a CRL (PEM
    /// `X509 CRL`, or DER that is not a certificate), a DER OCSP response; other PEM blocks
    /// are skipped (empty). The same decisions, in the same order, as the whole-file reader.
    static func render(_ item: Item, path: String, now: Int64) -> Rendered {
        let o = item.object
        let label = item.index == 1 && o.label == nil ? path : "\(path) [\(item.index)]"
        if let l = o.label, !o.isCertificateBlock {
            guard l == "X509 CRL" else { return Rendered() }
            do {
                let crl = try CertificateList(der: o.der)
                return Rendered(json: Array((RevocationReport.json(crl).serialized() + "\n").utf8))
            } catch {
                return Rendered(error: "sigil: \(label): \(error)")
            }
        }
        let cert: LenientCertificate
        do {
            cert = try LenientCertificate(der: o.der)
        } catch {
            if o.label == nil {
                if let crl = try? CertificateList(der: o.der) {
                    return Rendered(json: Array((RevocationReport.json(crl).serialized() + "\n").utf8))
                }
                if let ocsp = try? OCSPResponse(der: o.der) {
                    return Rendered(json: Array((RevocationReport.json(ocsp).serialized() + "\n").utf8))
                }
            }
            return Rendered(error: "sigil: \(label): \(error)")
        }
        var report = CertificateReport(cert, now: now)
        let sha = cert.der.withUnsafeBytes { SHA256.hash($0) }
        let spki = cert.subjectPublicKeyInfo.withUnsafeBytes { SHA256.hash($0) }
        var w = JSONWriter(capacity: 4096)
        report.writeJSON(into: &w, sha256: sha, spkiSha256: spki)
        // Embedded SCTs (RFC 6962 §3.3), as the whole-file path lists them without a log list:
        // every one with status unknown-log, as the last member of the object.
        if let c = cert.strictCertificate {
            let scts = SCTVerifier.check(c, issuer: nil, logList: nil, at: now)
            if !scts.isEmpty, w.bytes.last == UInt8(ascii: "}") {
                w.bytes.removeLast()
                w.bytes += Array((",\"scts\":" + JSONValue.array(scts.map(\.json)).serialized() + "}").utf8)
            }
        }
        w.byte(0x0A)
        return Rendered(json: w.bytes)
    }
}

/// One result slot per worker (each written by one thread only, read after they all finish).
final class Slots: @unchecked Sendable {
    let pointer: UnsafeMutableBufferPointer<[InspectStreamer.Rendered]>
    init(count: Int) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: [])
    }
    deinit {
        pointer.deinitialize()
        pointer.deallocate()
    }
}

/// Standard output through one large buffer and `write(2)`.
struct OutputBuffer {
    let fd: Int32
    var bytes: [UInt8] = []
    static let threshold = 1 << 16

    init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(Self.threshold * 2)
    }

    mutating func append(_ b: [UInt8]) {
        bytes.append(contentsOf: b)
        if bytes.count >= Self.threshold { flush() }
    }

    mutating func flush() {
        if bytes.isEmpty { return }
        fflush(nil)  // anything `print` buffered goes first
        bytes.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = write(fd, b.baseAddress! + done, b.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    // A closed pipe (`| head`): stop quietly, as the tools users pipe from do.
                    Foundation.exit(errno == EPIPE ? 0 : Exit.usage)
                }
                done += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// A progress line on standard error, only when it is a terminal and the input is large (or
/// of unknown size: standard input), at most twice a second.
struct Progress {
    let name: String
    let size: Int?
    let enabled: Bool
    var last = 0.0
    var shown = false

    init(name: String, size: Int?) {
        self.name = name
        self.size = size
        enabled = isatty(2) == 1 && (size.map { $0 >= 64 << 20 } ?? true)
        last = Progress.clock()
    }

    static func clock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    mutating func update(objects: Int, bytes: Int) {
        guard enabled else { return }
        let t = Progress.clock()
        guard t - last >= 0.5 else { return }
        last = t
        var line = "\r\(name): \(objects) objects, \(bytes >> 20) MiB"
        if let size, size > 0 { line += " of \(size >> 20) MiB (\(Int(Double(bytes) * 100 / Double(size)))%)" }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
        shown = true
    }

    mutating func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}

/// Runs `body` over an `ObjectStream` reading `path` ("-": standard input) one object at a
/// time; exits 2 with a message when the file cannot be opened (as `readInput`).
func withInputStream<R>(_ path: String, _ body: (inout ObjectStream) -> R) -> R {
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
    if fd < 0 {
        printError("sigil: cannot read \(path)")
        Foundation.exit(Exit.usage)
    }
    defer { if fd != 0 { close(fd) } }
    var stream = ObjectStream { buffer in
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }
    return body(&stream)
}

/// The certificates' DER of `path` ("-": standard input) through the streaming reader: what
/// `PEM.certificatesDER(in:)` gives for the whole file (the first malformed block, or no
/// certificate, is an error), without reading the file into memory first.
func readCertificates(_ path: String) -> Result<[[UInt8]], DERError> {
    withInputStream(path) { stream -> Result<[[UInt8]], DERError> in
        var out: [[UInt8]] = []
        do throws(DERError) {
            try stream.forEachCertificate { out.append($0) }
            return .success(out)
        } catch {
            return .failure(error)
        }
    }
}
