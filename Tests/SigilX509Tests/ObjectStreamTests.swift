import Foundation
import SigilDER
import SigilTestSupport
import SigilX509
import XCTest

/// `ObjectStream` yields what the whole-input readers find, whatever the buffer size (objects
/// and lines straddle every refill), and keeps going after a bad PEM block.
final class ObjectStreamTests: XCTestCase {
    func all(_ bytes: [UInt8], bufferSize: Int, limit: Int = Certificate.maximumSize) -> (
        objects: [ObjectStream.Object], errors: [DERError]
    ) {
        var s = ObjectStream(bytes: bytes, bufferSize: bufferSize, maximumObjectSize: limit)
        var objects: [ObjectStream.Object] = []
        var errors: [DERError] = []
        while true {
            do {
                guard let o = try s.next() else { break }
                objects.append(o)
            } catch {
                errors.append(error)
            }
        }
        return (objects, errors)
    }

    static let bufferSizes = [256, 257, 300, 1000, 4096, 1 << 16]

    func bundle() throws -> [UInt8] { try TestSupport.caBundle() }

    /// A read error ends the stream: the objects before it, one error, then the end — a caller
    /// that goes on after an error (as `sigil inspect` does after a bad PEM block) is not kept
    /// in a loop of the same error (it was, for a directory given as input).
    func testReadErrorEndsTheStream() throws {
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        let pem = Array(PEM.encode(cert).utf8)
        for prefix in [[], pem] {
            var offset = 0
            var failedReads = 0
            var s = ObjectStream(bufferSize: 256) { dst in
                if offset == prefix.count {
                    failedReads += 1
                    return -1
                }
                let n = min(dst.count, prefix.count - offset)
                for i in 0..<n { dst[i] = prefix[offset + i] }
                offset += n
                return n
            }
            if !prefix.isEmpty { XCTAssertEqual(try s.next()?.der, cert) }
            XCTAssertThrowsError(try s.next())
            XCTAssertNil(try s.next())
            XCTAssertNil(try s.next())
            XCTAssertEqual(failedReads, 1, "the source is not read again after its error")
        }
    }

    func testPEMBundlesMatchTheWholeInputReader() throws {
        for name in ["certs/bundle.pem", "certs/bundle-crlf.pem"] {
            let bytes = try TestSupport.read(TestSupport.fixtures.appendingPathComponent(name).path)
            let reference = try PEM.decodeBlocks(bytes)
            for size in Self.bufferSizes {
                let (objects, errors) = all(bytes, bufferSize: size)
                XCTAssertEqual(errors, [], "\(name) \(size)")
                XCTAssertEqual(
                    objects.filter(\.isCertificateBlock).map(\.der), reference.certificates, "\(name) \(size)")
                XCTAssertEqual(objects.filter { !$0.isCertificateBlock }.count, reference.skippedBlocks, name)
            }
        }
        let system = try bundle()
        let reference = try PEM.decodeBlocks(system).certificates
        XCTAssertGreaterThan(reference.count, 0)
        for size in [256, 999, 1 << 16] {
            XCTAssertEqual(all(system, bufferSize: size).objects.map(\.der), reference, "buffer \(size)")
        }
    }

    func testConcatenatedDER() throws {
        let certs = try PEM.decodeBlocks(try bundle()).certificates.prefix(40)
        let concatenated = Array(certs.joined())
        for size in Self.bufferSizes {
            let (objects, errors) = all(concatenated, bufferSize: size)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(objects.map(\.der), Array(certs), "buffer \(size)")
            XCTAssertEqual(objects.map(\.position).first, 0)
            XCTAssertEqual(objects[1].position, certs.first!.count)
        }
    }

    /// A certificate with trailing octets (not another certificate) stays one object, so the
    /// lenient reader reports the trailing octets as when whole files were read.
    func testTrailingOctetsStayWithTheObject() throws {
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        for tail: [UInt8] in [[0x30, 0x00], [0x00], [0x0A], [0x30, 0x03, 0x02, 0x01, 0x00]] {
            let (objects, errors) = all(cert + tail, bufferSize: 256)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(objects.map(\.der), [cert + tail], "\(tail)")
        }
        // Indefinite length (BER): the whole input is one object.
        let ber: [UInt8] = [0x30, 0x80, 0x30, 0x00, 0x00, 0x00]
        XCTAssertEqual(all(ber, bufferSize: 256).objects.map(\.der), [ber])
    }

    func testLimitsAndErrorsPerBlock() throws {
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        // DER over the limit: refused from its header, and the stream ends.
        let (o1, e1) = all(cert + cert, bufferSize: 256, limit: cert.count - 1)
        XCTAssertEqual(o1.count, 0)
        XCTAssertEqual(e1.map(\.kind), [.tooLarge])
        // PEM: a block over the limit, a block with a bad character, then a good block.
        let good = PEM.encode(cert)
        let bad = good.replacingOccurrences(of: "\n-----END", with: "!\n-----END")
        let text = Array(("junk\n" + good + bad + "between\n" + good).utf8)
        let (o2, e2) = all(text, bufferSize: 300, limit: 100)
        XCTAssertEqual(o2.count, 0)
        XCTAssertEqual(e2.map(\.kind), [.tooLarge, .tooLarge, .tooLarge])
        XCTAssertEqual(
            all(text, bufferSize: 300, limit: cert.count - 1).errors.map(\.kind),
            [.tooLarge, .invalidBase64, .tooLarge])
        let (o3, e3) = all(text, bufferSize: 300)
        XCTAssertEqual(o3.map(\.der), [cert, cert])
        XCTAssertEqual(o3.map(\.position), [2, 2 + good.split(separator: "\n").count * 2 + 1])
        XCTAssertEqual(e3.map(\.kind), [.invalidBase64])
        // A block the input ends inside.
        let (o4, e4) = all(Array(("x\n" + good.dropLast(30)).utf8), bufferSize: 256)
        XCTAssertEqual(o4.count, 0)
        XCTAssertEqual(e4, [DERError(.invalidPEM, at: 2)])
    }

    /// The line-by-line base64 decoder accepts and refuses exactly what the whole-input reader
    /// (`PEM.decodeBlocks`, `Base64.decode` over the joined body) does, with the same error
    /// and line: padding in every position, blanks, bad characters, lengths that are not a
    /// multiple of four, non-zero trailing bits (RFC 4648 §3.5), lines split across refills.
    func testBase64EdgeCasesMatchTheWholeInputReader() throws {
        let bodies = [
            "", "AA==", "AAA=", "AAAA", "AB==", "AAB=", "A===", "====", "AA=", "AAAAA", "AA==AA==",
            "AAAA\nAA==", "AA\n==", "AAA\n=", "AA=\n=", "AA==\n=", "AA==\nAAAA", "A A A A", "AA\tAA",
            "AAAA \n AA==", "AA!A", "AAAA\n\nAAAA", "AAAA\nA\nAAA", "AAA=\n", "=AAA", "AA=A",
            "MIIB\nAA==", "QUJD", "QUJDRA==", "QUJDREU=", "QUJDREUF", "QUJDRB==", "QUJDREV=",
        ]
        var cases = bodies
        // Mutations of a real block: one character replaced, inserted or removed.
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        let body = Array(PEM.encode(cert).split(separator: "\n").dropFirst().dropLast().joined(separator: "\n"))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var b = body
            let i = Int.random(in: 0..<b.count, using: &rng)
            let c = Array("A=+/ \t!\n\r").randomElement(using: &rng)!
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: b[i] = c
            case 1: b.insert(c, at: i)
            default: b.remove(at: i)
            }
            cases.append(String(b))
        }
        // The same with CR LF line ends (the 64-character line fast path takes both).
        cases += cases.map { $0.replacingOccurrences(of: "\n", with: "\r\n") }
        for body in cases {
            let text = Array(("x\n-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n").utf8)
            var expected: Result<[UInt8], DERError>
            do {
                let blocks = try PEM.decodeBlocks(text)
                expected = .success(blocks.certificates.first ?? [])
            } catch {
                expected = .failure(error)
            }
            for size in [256, 300, 1 << 16] {
                let (objects, errors) = all(text, bufferSize: size)
                switch expected {
                case .success(let der):
                    XCTAssertEqual(errors, [], body)
                    XCTAssertEqual(objects.map(\.der), [der], body)
                case .failure(let e):
                    XCTAssertEqual(objects.count, 0, body)
                    XCTAssertEqual(errors, [e], body)
                }
            }
        }
    }

    /// Base64 on one line longer than the read buffer, and text lines longer than it.
    func testLinesLongerThanTheBuffer() throws {
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        let oneLine = Base64.encodeString(cert)
        let text = Array(
            (String(repeating: "y", count: 3000) + "\n-----BEGIN CERTIFICATE-----\n" + oneLine
                + "\n-----END CERTIFICATE-----\n" + String(repeating: "z", count: 700)).utf8)
        let (objects, errors) = all(text, bufferSize: 256)
        XCTAssertEqual(errors, [])
        XCTAssertEqual(objects.map(\.der), [cert])
        XCTAssertEqual(objects.first?.position, 2)
    }

    func testTrustedCertificateAndOtherLabels() throws {
        let cert = try PEM.decodeBlocks(try bundle()).certificates[0]
        let trusted = PEM.encode(cert + [0x30, 0x00], label: "TRUSTED CERTIFICATE")
        let key = PEM.encode([1, 2, 3], label: "PRIVATE KEY")
        let (objects, errors) = all(Array((key + trusted).utf8), bufferSize: 256)
        XCTAssertEqual(errors, [])
        XCTAssertEqual(objects.map(\.label), ["PRIVATE KEY", "TRUSTED CERTIFICATE"])
        XCTAssertEqual(objects.map(\.isCertificateBlock), [false, true])
        XCTAssertEqual(objects[1].der, cert)
        XCTAssertEqual(all([], bufferSize: 256).objects.count, 0)
    }
}
