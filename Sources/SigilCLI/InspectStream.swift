import Foundation
@_spi(SigilInternal) import Sigil

/// `sigil inspect --json`: JSON Lines from a stream of any size.
///
/// Each input (a file, or `-` for standard input) is read through `ObjectStream` — a fixed read
/// buffer plus one object at a time — so memory does not grow with the input; every
/// certificate becomes one line written straight into a byte buffer (`JSONWriter`), flushed
/// to standard output in large writes. With one job the lines are written into the output
/// buffer itself. With `--jobs N`, N threads (the calling one and N − 1 more) each do
/// everything in turn: take the next chunk of objects from the shared stream (under a lock),
/// render it into a buffer of their own, and hand it over to be written in sequence order,
/// so the output is byte for byte the same as with one job (see `InspectPipeline`).
struct InspectStreamer {
    let now: Int64
    let jobs: Int
    /// Objects may be this large (the whole-input limit of the former reader: a big CRL).
    static let maximumObjectSize = PEM.maximumInputSize
    /// A chunk for the workers ends at this many objects or bytes of DER.
    static let chunkObjects = 64
    static let chunkBytes = 256 << 10
    /// Chunks read but not yet written, per job (the memory bound of `--jobs`).
    static let chunksInFlightPerJob = 4

    var out = OutputBuffer(fd: 1)
    var failed = false

    /// One entry of the input, in order: an object, or a malformed PEM block's message.
    enum Entry {
        case object(ObjectStream.Object, index: Int)
        case streamError(String)
    }

    /// What rendering one object did.
    enum Outcome {
        /// A JSON line was appended.
        case line
        /// Nothing to report (a PEM block of another kind).
        case skipped
        /// Nothing appended; the message goes to standard error.
        case error(String)
    }

    /// Inspects `path` ("-": standard input) through the CLI's one streaming reader; false
    /// when it cannot be opened or read.
    mutating func inspect(_ path: String) -> Bool {
        var size: Int?
        var st = stat()
        if (path == "-" ? fstat(0, &st) : stat(path, &st)) == 0, (st.st_mode & S_IFMT) == S_IFREG {
            size = Int(st.st_size)
        }
        let read: Void? = withObjectStream(path, maximumObjectSize: Self.maximumObjectSize) { stream in
            inspect(&stream, path: path, size: size)
        }
        return read != nil
    }

    /// Inspects the objects of `stream` (read from `path`, of `size` bytes when known).
    mutating func inspect(_ stream: inout ObjectStream, path: String, size: Int?) {
        var progress = Progress(name: path == "-" ? "standard input" : path, size: size)
        var index = 0
        var reported = 0
        var sawStreamError = false
        let now = self.now
        if jobs <= 1 {
            while true {
                let object: ObjectStream.Object?
                do {
                    object = try stream.next()
                } catch {
                    // The stream reports a bad PEM block and goes on (a DER error ends it).
                    index += 1
                    sawStreamError = true
                    out.flush()
                    printError("sigil: \(path) [\(index)]: \(error)")
                    failed = true
                    continue
                }
                guard let object else { break }
                index += 1
                switch Self.render(object, index: index, path: path, now: now, into: &out.writer) {
                case .line: reported += 1
                case .skipped: break
                case .error(let e):
                    out.flush()
                    printError(e)
                    failed = true
                }
                out.flushIfFull()
                if index & 511 == 0 { progress.update(objects: index, bytes: stream.bytesRead) }
            }
        } else {
            let result = withUnsafeMutablePointer(to: &stream) { streamPointer in
                withUnsafeMutablePointer(to: &progress) { progressPointer in
                    let pipeline = InspectPipeline(
                        stream: streamPointer, progress: progressPointer, path: path, now: now, out: out,
                        maximumInFlight: jobs * Self.chunksInFlightPerJob)
                    return pipeline.run(threads: jobs)
                }
            }
            out = result.out
            reported = result.reported
            sawStreamError = result.sawStreamError
            if result.failed { failed = true }
        }
        progress.finish()
        if reported == 0 && !sawStreamError {
            // No certificate, CRL or OCSP response (PEM with only other blocks, or not PEM/DER).
            out.flush()
            printError("sigil: \(path): \(DERError(.noCertificate, at: 0))")
            failed = true
        }
        out.flush()
    }

    /// Appends one object's JSON line to `w`: a certificate (PEM certificate labels, or DER), a
    /// CRL (PEM `X509 CRL`, or DER that is not a certificate), a DER OCSP response; other PEM
    /// blocks are skipped. The same decisions, in the same order, as the whole-file reader.
    static func render(
        _ o: ObjectStream.Object, index: Int, path: String, now: Int64, into w: inout JSONWriter
    ) -> Outcome {
        // The name in messages (built only for an error).
        func label() -> String { index == 1 && o.label == nil ? path : "\(path) [\(index)]" }
        func line(_ v: JSONValue) -> Outcome {
            var text = v.serialized()
            text.withUTF8 { w.raw(bytes: UnsafeRawBufferPointer($0)) }
            w.byte(0x0A)
            return .line
        }
        if let l = o.label, !o.isCertificateBlock {
            guard l == "X509 CRL" else { return .skipped }
            do {
                return line(RevocationReport.json(try CertificateList(der: o.der)))
            } catch {
                return .error("sigil: \(label()): \(error)")
            }
        }
        do {
            try CertificateReport.writeInspectJSON(der: o.der, now: now, into: &w)
        } catch {
            if o.label == nil {
                if let crl = try? CertificateList(der: o.der) { return line(RevocationReport.json(crl)) }
                if let ocsp = try? OCSPResponse(der: o.der) { return line(RevocationReport.json(ocsp)) }
            }
            return .error("sigil: \(label()): \(error)")
        }
        w.byte(0x0A)
        return .line
    }
}

/// The threads of `--jobs N`: N threads, each in a loop of (1) take the next chunk of the
/// input from the shared stream and number it, (2) render it into a buffer of its own, (3)
/// hand it in; whoever hands in the chunk that is next to be written writes it, and every
/// chunk after it already handed in (one writer at a time, in sequence order). So `--jobs 2`
/// keeps exactly two threads busy on two cores — no reader or writer thread beside the
/// renderers, no thread woken per chunk — and the objects a thread reads are allocated,
/// rendered and freed on that thread. Reading (PEM lines, base64) is the part done under the
/// lock: about a sixth of the work, overlapped with the other threads' rendering.
///
/// At most `maximumInFlight` chunks are taken and not yet written (a thread waits before
/// taking another), which bounds the memory whatever the input: one slow chunk (a large CRL)
/// cannot let the others run ahead without limit.
final class InspectPipeline: @unchecked Sendable {
    /// A rendered chunk: its JSON lines, and the messages for standard error with the byte
    /// offset of the JSON they come after (so they appear in input order).
    struct Rendered {
        var json: JSONWriter
        var messages: [(at: Int, text: String)]
        var lines: Int
    }

    let path: String
    let now: Int64
    let maximumInFlight: Int
    /// Guards everything below; the condition goes with it.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A chunk was written, or the input ended (threads waiting to take a chunk).
    let written = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The input, its progress line and the objects' running number (under the lock).
    let stream: UnsafeMutablePointer<ObjectStream>
    let progress: UnsafeMutablePointer<Progress>
    var index = 0
    var sawStreamError = false
    var ended = false
    /// Chunks taken (the next chunk's number), and taken but not yet written.
    var taken = 0
    var inFlight = 0
    /// Chunks handed in, by number, waiting for the ones before them.
    var done: [Int: Rendered] = [:]
    /// The chunk to write next, and whether a thread is writing.
    var nextToWrite = 0
    var writing = false
    /// Output buffers already written, for reuse.
    var spare: [JSONWriter] = []
    // The writing thread's state (one at a time, `writing`; read by `run` after the threads end).
    var out: OutputBuffer
    var reported = 0
    var failed = false

    init(
        stream: UnsafeMutablePointer<ObjectStream>, progress: UnsafeMutablePointer<Progress>, path: String,
        now: Int64, out: OutputBuffer, maximumInFlight: Int
    ) {
        self.stream = stream
        self.progress = progress
        self.path = path
        self.now = now
        self.out = out
        self.maximumInFlight = maximumInFlight
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(written, nil)
    }

    deinit {
        pthread_cond_destroy(written)
        written.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs the loop on the calling thread and `threads − 1` more; returns when the input
    /// is read and written.
    func run(threads: Int) -> (out: OutputBuffer, reported: Int, failed: Bool, sawStreamError: Bool) {
        var started: [pthread_t] = []
        for _ in 1..<threads {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, 1 << 20)
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let status = pthread_create(
                &thread, &attributes,
                { context in
                    let pipeline = Unmanaged<InspectPipeline>.fromOpaque(context!).takeRetainedValue()
                    pipeline.work()
                    return nil
                }, context)
            pthread_attr_destroy(&attributes)
            if status == 0 {
                started.append(thread)
            } else {
                Unmanaged<InspectPipeline>.fromOpaque(context).release()  // fewer threads, same output
            }
        }
        work()
        for t in started { pthread_join(t, nil) }
        precondition(done.isEmpty && nextToWrite == taken, "inspect pipeline: chunks left unwritten")
        return (out, reported, failed, sawStreamError)
    }

    /// Takes the next chunk from the stream into `entries` (empty at the end of the input).
    /// Called with the lock held.
    func take(into entries: inout [InspectStreamer.Entry]) {
        var bytes = 0
        while entries.count < InspectStreamer.chunkObjects && bytes < InspectStreamer.chunkBytes {
            let object: ObjectStream.Object?
            do {
                object = try stream.pointee.next()
            } catch {
                // The stream reports a bad PEM block and goes on (a DER error ends it).
                index += 1
                sawStreamError = true
                entries.append(.streamError("sigil: \(path) [\(index)]: \(error)"))
                continue
            }
            guard let object else {
                ended = true
                break
            }
            index += 1
            bytes += object.der.count
            entries.append(.object(object, index: index))
        }
        progress.pointee.update(objects: index, bytes: stream.pointee.bytesRead)
    }

    func work() {
        var entries: [InspectStreamer.Entry] = []
        entries.reserveCapacity(InspectStreamer.chunkObjects)
        var w = JSONWriter(capacity: 0)
        lock()
        while true {
            while inFlight >= maximumInFlight && !ended { pthread_cond_wait(written, mutex) }
            if ended { break }
            take(into: &entries)
            if ended { pthread_cond_broadcast(written) }  // threads waiting for room: the end
            if entries.isEmpty { break }
            let sequence = taken
            taken += 1
            inFlight += 1
            unlock()

            var messages: [(at: Int, text: String)] = []
            var lines = 0
            for e in entries {
                switch e {
                case .streamError(let text): messages.append((w.count, text))
                case .object(let o, let index):
                    switch InspectStreamer.render(o, index: index, path: path, now: now, into: &w) {
                    case .line: lines += 1
                    case .skipped: break
                    case .error(let text): messages.append((w.count, text))
                    }
                }
            }
            entries.removeAll(keepingCapacity: true)
            let r = Rendered(json: consume w, messages: messages, lines: lines)

            lock()
            done[sequence] = r
            w = spare.popLast() ?? JSONWriter(capacity: 0)
            if !writing { writeReady() }
        }
        unlock()
    }

    /// Writes the chunks handed in from `nextToWrite` on, in order, until one is missing.
    /// Called with the lock held and `writing` false; the lock is released while writing.
    func writeReady() {
        writing = true
        while let r = done.removeValue(forKey: nextToWrite) {
            unlock()
            // The buffer comes back as the only reference (`write` consumed the chunk), so
            // emptying it does not copy it.
            var json = write(r)
            json.removeAll()
            lock()
            nextToWrite += 1
            inFlight -= 1
            spare.append(json)
            pthread_cond_signal(written)
        }
        writing = false
    }

    /// Writes one chunk: its JSON, with its messages at their places; returns its buffer.
    func write(_ r: consuming Rendered) -> JSONWriter {
        var from = 0
        for m in r.messages {
            out.write(r.json, from, m.at)
            out.flush()
            printError(m.text)
            failed = true
            from = m.at
        }
        out.write(r.json, from, r.json.count)
        reported += r.lines
        return r.json
    }
}

/// Standard output through one large buffer and `write(2)`.
struct OutputBuffer {
    let fd: Int32
    /// What is not written yet; renderers append to it directly.
    var writer = JSONWriter(capacity: 0)
    static let threshold = 1 << 16

    init(fd: Int32) {
        self.fd = fd
        writer.reserveCapacity(Self.threshold * 2)
    }

    /// Writes when the buffer holds `threshold` bytes or more.
    @inline(__always)
    mutating func flushIfFull() {
        if writer.count >= Self.threshold { flush() }
    }

    /// Appends `b[from..<to]`; a large run goes out directly, without a copy.
    mutating func write(_ b: JSONWriter, _ from: Int, _ to: Int) {
        if from >= to { return }
        if to - from >= Self.threshold {
            flush()
            b.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
            return
        }
        b.withUnsafeBytes { writer.raw(bytes: UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
        flushIfFull()
    }

    mutating func flush() {
        if writer.count == 0 { return }
        writer.withUnsafeBytes { writeAll($0) }
        writer.removeAll()
    }

    func writeAll(_ b: UnsafeRawBufferPointer) {
        fflush(nil)  // anything `print` buffered goes first
        var done = 0
        while done < b.count {
            let n = Foundation.write(fd, b.baseAddress! + done, b.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                // A closed pipe (`| head`): stop quietly, as the tools users pipe from do.
                Foundation.exit(errno == EPIPE ? 0 : Exit.usage)
            }
            done += n
        }
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
