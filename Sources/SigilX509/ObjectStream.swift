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
        if got < 0 { throw DERError(.truncated, at: bytesRead) }
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
            guard let label = PEM.beginLabel(buffer[range]) else { continue }
            blockCount += 1
            return try readBlock(label: String(decoding: label, as: UTF8.self), beginLine: number)
        }
        finished = true
        return nil
    }

    mutating func readBlock(label: String, beginLine: Int) throws(DERError) -> Object? {
        let labelBytes = Array(label.utf8)
        let limit = maximumObjectSize / 3 * 4 + 4
        var body: [UInt8] = []
        body.reserveCapacity(2048)
        var sawPadding = false
        var failure: DERError?
        var pendingPiece = false
        let table = Base64.decodeTable
        while let (range, number, complete) = try nextLine() {
            if complete { lineNumber = number }
            if !pendingPiece, complete, let endLabel = PEM.endLabel(buffer[range]) {
                if !endLabel.elementsEqual(labelBytes) { throw failure ?? DERError(.invalidPEM, at: number) }
                if let failure { throw failure }
                guard let der = Base64.decode(body) else { throw DERError(.invalidBase64, at: beginLine + 1) }
                guard der.count <= maximumObjectSize else { throw DERError(.tooLarge, at: beginLine) }
                let object = label == "TRUSTED CERTIFICATE" ? (PEM.firstTLV(der) ?? der) : der
                return Object(der: object, label: label, position: beginLine)
            }
            pendingPiece = !complete
            if failure != nil { continue }
            let ok: Bool = buffer.withUnsafeBufferPointer { b in
                var hasBlanks = false
                for i in range {
                    let c = b[i]
                    let value = table.withUnsafeBufferPointer { $0[Int(c)] }
                    if value != 0xFF {
                        if sawPadding { return false }
                    } else if c == 0x3D {
                        sawPadding = true
                    } else if c == 0x20 || c == 0x09 {
                        hasBlanks = true
                    } else {
                        return false
                    }
                }
                if hasBlanks {
                    for i in range where b[i] != 0x20 && b[i] != 0x09 { body.append(b[i]) }
                } else {
                    body.append(contentsOf: UnsafeBufferPointer(rebasing: b[range]))
                }
                return true
            }
            if !ok {
                failure = DERError(.invalidBase64, at: number)
                body = []
            } else if body.count > limit {
                failure = DERError(.tooLarge, at: beginLine)
                body = []
            }
        }
        finished = true
        throw failure ?? DERError(.invalidPEM, at: beginLine)
    }
}
