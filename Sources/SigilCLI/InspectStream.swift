import Foundation
@_spi(SigilInternal) import Sigil

/// `sigil inspect --json`: JSON Lines from a stream of any size.
///
/// Each input (a file, or `-` for standard input) is read through `ObjectStream` — a fixed read
/// buffer plus one object at a time — so memory does not grow with the input; every
/// certificate becomes one line written straight into a byte buffer (`JSONWriter`), flushed
/// to standard output in large writes. With one job the lines are written into the output
/// buffer itself. With `--jobs N` the reading thread runs ahead of N rendering threads: it
/// cuts the input into numbered chunks and queues them (at most a few chunks per job are read
/// but not yet written, so memory stays bounded); each worker renders a whole chunk into a
/// buffer of its own, reused from chunk to chunk; a writer thread writes the chunks in their
/// sequence order, so the output is byte for byte the same as with one job.
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
            let pipeline = InspectPipeline(
                jobs: jobs, path: path, now: now, out: out,
                maximumInFlight: jobs * Self.chunksInFlightPerJob)
            var chunk: [Entry] = []
            chunk.reserveCapacity(Self.chunkObjects)
            var chunkBytes = 0
            while true {
                let object: ObjectStream.Object?
                do {
                    object = try stream.next()
                } catch {
                    index += 1
                    sawStreamError = true
                    chunk.append(.streamError("sigil: \(path) [\(index)]: \(error)"))
                    continue
                }
                guard let object else { break }
                index += 1
                chunkBytes += object.der.count
                chunk.append(.object(object, index: index))
                if chunk.count >= Self.chunkObjects || chunkBytes >= Self.chunkBytes {
                    pipeline.submit(chunk)
                    chunk.removeAll(keepingCapacity: true)
                    chunkBytes = 0
                    progress.update(objects: index, bytes: stream.bytesRead)
                }
            }
            if !chunk.isEmpty { pipeline.submit(chunk) }
            let result = pipeline.finish()
            out = result.out
            reported = result.reported
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

/// The threads of `--jobs N`: the caller (the reading thread) submits numbered chunks; N
/// workers render them; one writer writes them in order. At most `maximumInFlight` chunks are
/// read but not yet written (`submit` waits), which bounds the memory whatever the input.
///
/// One mutex guards the shared state; each kind of waiter has its own condition, signalled
/// only when what it waits for happens (a chunk queued: one worker; the chunk the writer
/// needs next rendered: the writer; a chunk written: the reader), so no thread is woken for
/// nothing (with one condition broadcast for every event, each chunk woke every thread).
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
    /// Guards everything below; the conditions go with it.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A chunk was queued, or the input ended (workers wait on it).
    let queued = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The chunk numbered `nextToWrite` was rendered, or the input ended (the writer).
    let rendered = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// A chunk was written (the reader, in `submit`).
    let written = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// A thread ended (`finish`).
    let ended = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    var queue: [(sequence: Int, entries: [InspectStreamer.Entry])] = []
    var queueHead = 0
    var done: [Int: Rendered] = [:]
    /// The chunk the writer writes next.
    var nextToWrite = 0
    /// Output buffers handed back by the writer, for the workers to reuse.
    var spare: [JSONWriter] = []
    var submitted = 0
    var inFlight = 0
    var closed = false
    var running = 0
    // The writer's own state (read by the caller only after the threads end).
    var out: OutputBuffer
    var reported = 0
    var failed = false

    init(jobs: Int, path: String, now: Int64, out: OutputBuffer, maximumInFlight: Int) {
        self.path = path
        self.now = now
        self.out = out
        self.maximumInFlight = maximumInFlight
        pthread_mutex_init(mutex, nil)
        for c in [queued, rendered, written, ended] { pthread_cond_init(c, nil) }
        running = jobs + 1
        for _ in 0..<jobs { start { $0.work() } }
        start { $0.write() }
    }

    deinit {
        for c in [queued, rendered, written, ended] {
            pthread_cond_destroy(c)
            c.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    @inline(__always) func wait(_ c: UnsafeMutablePointer<pthread_cond_t>) { pthread_cond_wait(c, mutex) }

    func start(_ body: @escaping @Sendable (InspectPipeline) -> Void) {
        let t = Thread { [self] in
            body(self)
            lock()
            running -= 1
            pthread_cond_signal(ended)
            unlock()
        }
        t.stackSize = 1 << 20
        t.start()
    }

    /// Queues a chunk, waiting while `maximumInFlight` chunks are read and not yet written.
    func submit(_ entries: [InspectStreamer.Entry]) {
        lock()
        while inFlight >= maximumInFlight { wait(written) }
        inFlight += 1
        queue.append((submitted, entries))
        submitted += 1
        pthread_cond_signal(queued)
        unlock()
    }

    /// No more chunks: waits for every chunk to be written and the threads to end.
    func finish() -> (out: OutputBuffer, reported: Int, failed: Bool) {
        lock()
        closed = true
        pthread_cond_broadcast(queued)
        pthread_cond_broadcast(rendered)
        while running > 0 { wait(ended) }
        unlock()
        return (out, reported, failed)
    }

    func work() {
        while true {
            lock()
            while queueHead == queue.count && !closed { wait(queued) }
            if queueHead == queue.count {
                unlock()
                return
            }
            let (sequence, entries) = queue[queueHead]
            queue[queueHead].entries = []
            queueHead += 1
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            var w = spare.popLast() ?? JSONWriter(capacity: 0)
            unlock()

            var r = Rendered(json: JSONWriter(capacity: 0), messages: [], lines: 0)
            for e in entries {
                switch e {
                case .streamError(let text): r.messages.append((w.count, text))
                case .object(let o, let index):
                    switch InspectStreamer.render(o, index: index, path: path, now: now, into: &w) {
                    case .line: r.lines += 1
                    case .skipped: break
                    case .error(let text): r.messages.append((w.count, text))
                    }
                }
            }
            r.json = w

            lock()
            done[sequence] = r
            if sequence == nextToWrite { pthread_cond_signal(rendered) }
            unlock()
        }
    }

    func write() {
        var next = 0
        while true {
            lock()
            while done[next] == nil && !(closed && next == submitted) { wait(rendered) }
            guard var r = done.removeValue(forKey: next) else {
                unlock()
                return
            }
            unlock()

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
            next += 1
            r.json.removeAll()

            lock()
            nextToWrite = next
            inFlight -= 1
            spare.append(r.json)
            pthread_cond_signal(written)
            unlock()
        }
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
