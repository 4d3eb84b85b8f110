import SigilDER

/// Reads PEM blocks or DER objects one at a time from a source of any size (a file, a pipe,
/// standard input), with memory bounded by a fixed read buffer plus the largest object — never
/// by the size of the input.
///
/// The format is detected from the first byte, as `PEM.certificatesDER(in:)` does: `0x30` (a DER
/// SEQUENCE) starts DER, anything else is PEM text.
///
/// - **PEM** (RFC 7468): every block, whatever its label, in order; text outside blocks is
///   skipped (§2), CR LF and LF line ends are accepted, base64 is as strict as
///   `PEM.decodeBlocks(_:)` (standard alphabet, `=` only at the end, blanks ignored, no headers).
///   A `TRUSTED CERTIFICATE` block yields its first TLV (OpenSSL appends trust settings). A
///   malformed block throws a `DERError` whose offset is a 1-based line number; the stream then
///   continues with the next block (a corpus scan survives one bad block).
/// - **DER**: concatenated TLVs, each read from its header (definite length, at most 4 length
///   octets). When what follows an object is neither the end of the input nor the start of
///   another certificate or CRL (a SEQUENCE opening with a SEQUENCE), or a length is indefinite or unreadable, the rest of the input (up to the limit)
///   is yielded as one object, so a single certificate with trailing octets or in BER reaches
///   the lenient reader as it did when whole files were read. Errors in DER end the stream.
///
/// Objects over `maximumObjectSize` (DER length, or base64 text over 4/3 of it) throw
/// `.tooLarge`. The library reads nothing itself: the caller supplies `read`.
public struct ObjectStream {
    /// Fills the buffer from the front; returns the number of bytes read, 0 at the end of
    /// the input, a negative number on a read error.
    public typealias Read = (UnsafeMutableRawBufferPointer) -> Int

    /// One object of the input.
    public struct Object: Sendable {
        /// The object's bytes: a PEM block's decoded content, or a DER object.
        public var der: [UInt8]
        /// The PEM label (`CERTIFICATE`, `X509 CRL`, …); nil for DER input.
        public var label: String?
        /// PEM: the 1-based line of the BEGIN line; DER: the byte offset of the object.
        public var position: Int
        /// A `TRUSTED CERTIFICATE` block's trust settings (nil when it carries none, and for
        /// every other block): a trust anchor loaded from it is limited to them.
        public var trustSettings: CertificateTrustSettings? = nil
        /// True for the certificate labels `PEM.decodeBlocks(_:)` accepts, and for DER objects.
        public var isCertificateBlock: Bool {
            guard let label else { return true }
            return label == "CERTIFICATE" || label == "X509 CERTIFICATE" || label == "TRUSTED CERTIFICATE"
        }
    }

    /// The detected format (nil before the first byte is read).
    public enum Format: Sendable { case pem, der }

    let read: Read
    let maximumObjectSize: Int
    var buffer: [UInt8]
    var start = 0
    var end = 0
    var atEOF = false
    var finished = false
    /// Bytes consumed before `buffer[0]`.
    var base = 0
    var lineNumber = 0

    /// The detected format, once the first byte is read.
    public private(set) var format: Format?
    /// PEM blocks seen so far (of any label).
    public private(set) var blockCount = 0

    /// Bytes of input consumed so far (for progress reports).
    public var bytesRead: Int { base + end }

    /// A stream over `read`, with a read buffer of `bufferSize` bytes and objects of at most
    /// `maximumObjectSize` bytes.
    public init(bufferSize: Int = 1 << 16, maximumObjectSize: Int = Certificate.maximumSize, read: @escaping Read) {
        self.read = read
        self.maximumObjectSize = maximumObjectSize
        self.buffer = [UInt8](repeating: 0, count: max(bufferSize, 256))
    }

    /// A stream over bytes already in memory (tests, small inputs).
    public init(bytes: [UInt8], bufferSize: Int = 1 << 16, maximumObjectSize: Int = Certificate.maximumSize) {
        var offset = 0
        self.init(bufferSize: bufferSize, maximumObjectSize: maximumObjectSize) { dst in
            let n = min(dst.count, bytes.count - offset)
            if n > 0 {
                bytes.withUnsafeBytes { src in
                    dst.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n)
                }
            }
            offset += n
            return n
        }
    }

    /// Moves unread bytes to the front and reads more; false at the end of the input.
    mutating func fill() throws(DERError) -> Bool {
        if atEOF { return false }
        if start > 0 {
            let n = end - start
            if n > 0 {
                buffer.withUnsafeMutableBytes { b in
                    b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: n)
                }
            }
            base += start
            end = n
            start = 0
        }
        if end == buffer.count { return true }  // full: the caller consumes a partial line
        let got = buffer.withUnsafeMutableBytes { b in read(UnsafeMutableRawBufferPointer(rebasing: b[end...])) }
        if got < 0 {
            // A read error ends the input: a caller that goes on after an error (as after a
            // bad PEM block) gets the end, not the same error again and again.
            atEOF = true
            finished = true
            throw DERError(.truncated, at: bytesRead)
        }
        if got == 0 {
            atEOF = true
            return false
        }
        end += got
        return true
    }

    /// The next object, nil at the end of the input.
    public mutating func next() throws(DERError) -> Object? {
        if finished { return nil }
        if format == nil {
            while start == end {
                if try !fill() {
                    finished = true
                    return nil
                }
            }
            format = buffer[start] == 0x30 ? .der : .pem
        }
        switch format! {
        case .der: return try nextDER()
        case .pem: return try nextPEM()
        }
    }

    // MARK: DER

    /// Ensures `count` bytes are buffered from `start` (growing the buffer up to the object
    /// limit); false when the input ends first.
    mutating func ensure(_ count: Int) throws(DERError) -> Bool {
        while end - start < count {
            if end == buffer.count && start == 0 {
                buffer.append(contentsOf: repeatElement(0, count: max(buffer.count, count - buffer.count)))
            }
            if try !fill() { return end - start >= count }
        }
        return true
    }

    /// The total size of the TLV at `start`, nil when its length is indefinite or unreadable.
    mutating func tlvSize() throws(DERError) -> Int? {
        guard try ensure(2) else { return nil }
        let first = buffer[start + 1]
        if first < 0x80 { return 2 + Int(first) }
        let n = Int(first & 0x7F)
        guard n >= 1 && n <= 4, try ensure(2 + n) else { return nil }
        var length = 0
        for i in 0..<n { length = length << 8 | Int(buffer[start + 2 + i]) }
        return 2 + n + length
    }

    /// True when the bytes at `start + offset` open another certificate or CRL: a SEQUENCE
    /// whose first element is a SEQUENCE (the TBS). Anything else after an object (a stray
    /// `30 00`, padding) stays with the object before it, as trailing octets the lenient reader
    /// reports.
    mutating func startsObject(at offset: Int) throws(DERError) -> Bool {
        guard try ensure(offset + 3), buffer[start + offset] == 0x30 else { return false }
        let first = buffer[start + offset + 1]
        let header = first < 0x80 ? 2 : 2 + Int(first & 0x7F)
        guard first != 0x80, header <= 6, try ensure(offset + header + 1) else { return false }
        return buffer[start + offset + header] == 0x30
    }

    mutating func nextDER() throws(DERError) -> Object? {
        while start == end {
            if try !fill() {
                finished = true
                return nil
            }
        }
        let offset = bytesRead - (end - start)
        if let size = try tlvSize() {
            guard size <= maximumObjectSize else {
                finished = true
                throw DERError(.tooLarge, at: offset)
            }
            if try ensure(size) {
                // What follows: the end, or another object (concatenated DER).
                let more = try ensure(size + 1)
                let another = more ? try startsObject(at: size) : false
                if !more || another {
                    let der = Array(buffer[start..<(start + size)])
                    start += size
                    return Object(der: der, label: nil, position: offset)
                }
            }
        }
        // Indefinite or unreadable length, a short object, or trailing octets: the rest of the
        // input is one object (what the lenient reader diagnoses), within the limit.
        while try fill() {
            if end - start > maximumObjectSize {
                finished = true
                throw DERError(.tooLarge, at: offset)
            }
            if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        }
        finished = true
        guard end - start <= maximumObjectSize else { throw DERError(.tooLarge, at: offset) }
        let der = Array(buffer[start..<end])
        start = end
        return Object(der: der, label: nil, position: offset)
    }

    // MARK: PEM

    /// The next line (without CR LF) as a range of `buffer`, its 1-based number, and whether
    /// it is complete (false: a piece of a line longer than the buffer).
    mutating func nextLine() throws(DERError) -> (Range<Int>, Int, Bool)? {
        var scanFrom = start
        while true {
            let nl: Int? = buffer.withUnsafeBufferPointer { b in
                var i = scanFrom
                // Eight octets at a time until a word holds a line feed (SWAR zero-byte test).
                let raw = UnsafeRawBufferPointer(b)
                while end - i >= 8 {
                    let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
                    if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0 { break }
                    i += 8
                }
                while i < end {
                    if b[i] == 0x0A { return i }
                    i += 1
                }
                return nil
            }
            if let nl {
                var lineEnd = nl
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let r = start..<lineEnd
                start = nl + 1
                lineNumber += 1
                return (r, lineNumber, true)
            }
            let scanned = end - start
            let hadData = try fill()
            scanFrom = start + scanned
            if !hadData {
                guard start < end else { return nil }
                // The last line, without a terminator.
                var lineEnd = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let r = start..<lineEnd
                start = end
                lineNumber += 1
                return (r, lineNumber, true)
            }
            if end == buffer.count && start == 0 && scanFrom >= end {
                // A line longer than the buffer: hand over a piece (inside a block it is base64).
                let r = start..<end
                start = end
                return (r, lineNumber + 1, false)
            }
        }
    }

    mutating func nextPEM() throws(DERError) -> Object? {
        var continuing = false
        while let (range, number, complete) = try nextLine() {
            if continuing {
                continuing = !complete
                if complete { lineNumber = number }
                continue
            }
            if !complete {
                continuing = true
                continue
            }
            // The label is a slice of `buffer`: it must not outlive this scope, or each `fill`
            // while the block is read would copy the whole read buffer (not uniquely referenced).
            let name: String
            do {
                guard let label = PEM.beginLabel(buffer[range]) else { continue }
                // The usual label without building a String from its octets.
                name = PEM.equal(label, "CERTIFICATE") ? "CERTIFICATE" : String(decoding: label, as: UTF8.self)
            }
            blockCount += 1
            return try readBlock(label: name, beginLine: number)
        }
        finished = true
        return nil
    }

    mutating func readBlock(label: String, beginLine: Int) throws(DERError) -> Object? {
        let limit = maximumObjectSize / 3 * 4 + 4
        var decoder = Base64Stream()
        var sawPadding = false
        var failure: DERError?
        var pendingPiece = false
        let table = Base64.decodeTable
        while true {
            // The usual body line — 64 alphabet characters and LF or CR LF, already buffered —
            // decoded where it lies, without scanning for its end first. Anything else (a
            // shorter, longer or padded line, a blank, an END line, a bad character) is
            // left to the line-by-line path below, which decides exactly as before.
            // Every such line already buffered is taken in one call (`fullLines`).
            if !pendingPiece && failure == nil && !sawPadding && end - start >= 66 {
                let end = self.end
                let start = self.start
                let (used, lines) = table.withUnsafeBufferPointer { t in
                    buffer.withUnsafeBytes { b in decoder.fullLines(t, b, start, end, limit: limit) }
                }
                if used > 0 {
                    self.start += used
                    lineNumber += lines
                    if decoder.characters > limit {
                        failure = DERError(.tooLarge, at: beginLine)
                        decoder = Base64Stream()
                    }
                    continue
                }
            }
            guard let (range, number, complete) = try nextLine() else { break }
            if complete { lineNumber = number }
            if !pendingPiece, complete, let endLabel = PEM.endLabel(buffer[range]) {
                if !PEM.equal(endLabel, label) { throw failure ?? DERError(.invalidPEM, at: number) }
                if let failure { throw failure }
                // RFC 4648 §3.5: canonical length, padding and trailing bits.
                guard let der = decoder.finish() else { throw DERError(.invalidBase64, at: beginLine + 1) }
                guard der.count <= maximumObjectSize else { throw DERError(.tooLarge, at: beginLine) }
                if label == "TRUSTED CERTIFICATE" {
                    let (certificate, settings) = PEM.splitTrustedCertificate(der)
                    return Object(der: certificate, label: label, position: beginLine, trustSettings: settings)
                }
                return Object(der: der, label: label, position: beginLine)
            }
            pendingPiece = !complete
            if failure != nil { continue }
            // RFC 7468 §2/§3: base64 characters and blanks only, `=` only at the end.
            let ok = buffer.withUnsafeBufferPointer { b in
                decoder.line(UnsafeBufferPointer(rebasing: b[range]), sawPadding: &sawPadding)
            }
            if !ok {
                failure = DERError(.invalidBase64, at: number)
                decoder = Base64Stream()
            } else if decoder.characters > limit {
                failure = DERError(.tooLarge, at: beginLine)
                decoder = Base64Stream()
            }
        }
        finished = true
        throw failure ?? DERError(.invalidPEM, at: beginLine)
    }
}

/// Base64 (RFC 4648 §4) decoded line by line as a PEM body arrives, with the acceptance rules
/// of `Base64.decode` over the whole body with blanks removed: the standard alphabet, `=`
/// only in the last quantum (two at most), a length that is a multiple of four, zero bits
/// beyond the data (§3.5). Lines whose characters are all in the alphabet (the usual 64)
/// decode eight characters at a time, straight from the read buffer into the output.
struct Base64Stream {
    /// Storage for the decoded octets: the first `count` are decoded, the rest is room (kept
    /// at least 8 octets beyond what a line adds: the wide decoder stores 8 octets at a time).
    var out: [UInt8]
    var count = 0
    /// Characters of an incomplete quantum (alphabet values; 0xFE for `=`).
    var carry: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    var carried = 0
    /// A quantum with padding was complete: anything after it is not canonical.
    var closed = false
    /// The body is not canonical base64 (reported when the block ends).
    var invalid = false
    /// Characters of the body so far (blanks not counted).
    var characters = 0

    /// Decode whole lines with AVX2 (this CPU has it; read once per block).
    let simd: Bool

    init() {
        // Not zeroed (a 2 KiB memset per block): only the first `count` octets, each written
        // before it is counted, are ever read (`finish`, `grow`).
        out = [UInt8](unsafeUninitializedCapacity: 2048) { _, initialized in initialized = 2048 }
        simd = Base64.simdAvailable
    }

    /// Room for `n` more octets plus the wide decoder's 8-octet overhang.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        let need = count + n + 8
        if need > out.count { grow(max(out.count * 2, need)) }
    }

    /// New storage of `size` octets (zeroed in one go) holding the `count` decoded so far.
    @inline(never)
    mutating func grow(_ size: Int) {
        var bigger = [UInt8](repeating: 0, count: size)
        bigger.withUnsafeMutableBufferPointer { d in
            out.withUnsafeBufferPointer { s in d.baseAddress!.update(from: s.baseAddress!, count: count) }
        }
        out = bigger
    }

    /// Feeds one line; false when it holds a character other than base64, `=` and blanks, or
    /// an alphabet character after `=` (what the line check of `PEM.decodeBlocks` refuses).
    mutating func line(_ l: UnsafeBufferPointer<UInt8>, sawPadding: inout Bool) -> Bool {
        if !sawPadding && carried == 0 && l.count & 3 == 0 {
            if fastLine(l) { return true }
            // The usual last line: whole quanta of alphabet characters, then the padded one —
            // the quanta decoded at once, the last four characters one by one as below (the
            // same octets and checks as taking the whole line one by one).
            let n = l.count - 4
            if n > 0 && fastLine(UnsafeBufferPointer(rebasing: l[..<n])) {
                return slowLine(UnsafeBufferPointer(rebasing: l[n...]), sawPadding: &sawPadding)
            }
        }
        return slowLine(l, sawPadding: &sawPadding)
    }

    /// `line`, one character at a time.
    mutating func slowLine(_ l: UnsafeBufferPointer<UInt8>, sawPadding: inout Bool) -> Bool {
        for c in l {
            let v = Base64.decodeTable[Int(c)]
            if v != 0xFF {
                if sawPadding { return false }
                push(v)
            } else if c == 0x3D {
                sawPadding = true
                push(0xFE)
            } else if c != 0x20 && c != 0x09 {
                return false
            }
        }
        return true
    }

    /// Whole quanta of alphabet characters only; false (nothing consumed) otherwise.
    mutating func fastLine(_ l: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = l.count
        if n == 0 { return true }
        if closed || invalid { return false }
        reserve(n / 4 * 3)
        let ok = Base64.decodeTable.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBytes { dst in
                Base64.decodeLine(simd, t, UnsafeRawBufferPointer(l), into: dst.baseAddress! + count)
            }
        }
        if ok {
            count += n / 4 * 3
            characters += n
        }
        return ok
    }

    /// The usual body lines from `from` in `b` (which holds octets up to `end`): each a line of
    /// exactly 64 alphabet characters ending in LF or CR LF, with 66 octets buffered from its
    /// start, decoded while the body is still open and has no partial quantum. Returns the
    /// octets and the lines taken (0: nothing consumed), with one access to the storage for
    /// all of them; stops after a line that takes ``characters`` over `limit` (the caller's
    /// size check). The storage grows as it would one line at a time.
    @inline(__always)
    mutating func fullLines(
        _ table: UnsafeBufferPointer<UInt8>, _ b: UnsafeRawBufferPointer, _ from: Int, _ end: Int, limit: Int
    ) -> (used: Int, lines: Int) {
        if closed || invalid || carried != 0 { return (0, 0) }
        // The lines that fit the storage (`reserve(48)` per line grows it only when none does).
        if out.count - count - 8 < 48 { reserve(48) }
        let most = min((end - from) / 65, (out.count - count - 8) / 48)
        var at = from
        var lines = 0
        var decoded = count
        out.withUnsafeMutableBytes { dst in
            let base = dst.baseAddress!
            while lines < most && end - at >= 66 {
                let used: Int
                if b[at + 64] == 0x0A {
                    used = 65
                } else if b[at + 64] == 0x0D && b[at + 65] == 0x0A {
                    used = 66
                } else {
                    break
                }
                guard
                    Base64.decodeLine(
                        simd, table, UnsafeRawBufferPointer(rebasing: b[at..<(at + 64)]), into: base + decoded)
                else { break }
                decoded += 48
                at += used
                lines += 1
                if characters + 64 * lines > limit { break }
            }
        }
        count = decoded
        characters += 64 * lines
        return (at - from, lines)
    }

    mutating func append(_ b: UInt8) {
        reserve(1)
        out[count] = b
        count += 1
    }

    mutating func push(_ v: UInt8) {
        characters += 1
        if closed { invalid = true }
        if invalid { return }
        switch carried {
        case 0: carry.0 = v
        case 1: carry.1 = v
        case 2: carry.2 = v
        default: carry.3 = v
        }
        carried += 1
        guard carried == 4 else { return }
        carried = 0
        let (a, b, c, d) = carry
        if (a | b | c | d) & 0x80 == 0 {
            let x = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            append(UInt8(truncatingIfNeeded: x >> 16))
            append(UInt8(truncatingIfNeeded: x >> 8))
            append(UInt8(truncatingIfNeeded: x))
            return
        }
        // The padded last quantum: "xx==" (4 zero bits beyond) or "xxx=" (2 zero bits beyond).
        closed = true
        guard d == 0xFE, a & 0x80 == 0, b & 0x80 == 0 else {
            invalid = true
            return
        }
        if c == 0xFE {
            if b & 0x0F != 0 { invalid = true } else { append(a << 2 | b >> 4) }
        } else if c & 0x80 != 0 || c & 0x03 != 0 {
            invalid = true
        } else {
            append(a << 2 | b >> 4)
            append((b & 0x0F) << 4 | c >> 2)
        }
    }

    /// The decoded octets (the storage itself, cut to length: no copy); nil when the body is
    /// not canonical base64.
    mutating func finish() -> [UInt8]? {
        if invalid || carried != 0 { return nil }
        var result = out
        out = []
        result.removeLast(result.count - count)
        return result
    }
}

extension ObjectStream {
    /// Hands each certificate of the input to `body`, in order, one at a time — what
    /// `PEM.certificatesDER(in:)` finds in a whole input, read with bounded memory: PEM
    /// `CERTIFICATE` (and legacy) blocks, other labels skipped; DER input one object at a time
    /// (concatenated DER too). Throws the first error of the input (a malformed block, an
    /// object over the limit) — after `body` has seen the certificates before it — and
    /// `.noCertificate` when the input holds none. Returns the number of certificates.
    @discardableResult
    public mutating func forEachCertificate(_ body: ([UInt8]) -> Void) throws(DERError) -> Int {
        try forEachCertificateObject { body($0.der) }
    }

    /// `forEachCertificate(_:)` handing over the whole object (its trust settings included).
    @discardableResult
    public mutating func forEachCertificateObject(_ body: (Object) -> Void) throws(DERError) -> Int {
        var count = 0
        while let o = try next() {
            guard o.isCertificateBlock else { continue }
            count += 1
            body(o)
        }
        if count == 0 { throw DERError(.noCertificate, at: 0) }
        return count
    }
}
