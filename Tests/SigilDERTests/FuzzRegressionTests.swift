// Replays every input that fuzzing ever turned into a finding (Fixtures/fuzz-regressions/)
// through the same walk the fuzz target runs. `FuzzRegressionWalk.swift` is a symlink to
// Fuzz/Sources/FuzzSupport/DERWalk.swift, so the replay cannot drift from the fuzzer.
//
// The walk traps on a finding (as under libFuzzer), so a regressed input fails the test run
// by crashing it; the test's name and the input's path are printed before each replay.
//
// Folders replayed here (by the DER walk):
//   Fixtures/fuzz-regressions/FuzzDER/
//   Fixtures/fuzz-regressions/FuzzDifferentialDER/  (the swift-asn1 comparison itself is
//       replayed by Fuzz/run.sh, which runs the fuzz binary over the folder first)

import Foundation
import SigilDER
import Testing

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")

    static func inputs(_ target: String) -> [URL] {
        let dir = root.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    static let derInputs = inputs("FuzzDER") + inputs("FuzzDifferentialDER")

    @Test("regression folders are present")
    func foldersPresent() {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("FuzzDER").path))
        #expect(!Self.derInputs.isEmpty)
    }

    @Test("DER walk replays every FuzzDER / FuzzDifferentialDER regression input", arguments: derInputs)
    func replayDER(_ url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        print("replaying \(url.lastPathComponent) (\(bytes.count) bytes)")
        DERWalk.run(bytes)
    }

    /// The finding behind `FuzzDER/universal-0-*`: X.680 §8.6 reserves [UNIVERSAL 0] for the
    /// encoding rules, and X.690 §8.1.5 uses it only as end-of-contents octets, which DER
    /// (§10.1, definite lengths only) never has; the reader must not return it as a value.
    @Test(
        "[UNIVERSAL 0] is not a value",
        arguments: [[0x00, 0x00], [0x20, 0x00], [0x30, 0x02, 0x00, 0x00]] as [[UInt8]])
    func universalZeroRejected(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buf in
            var reader = DERReader(buf)
            var thrown: DERError? = nil
            do throws(DERError) {
                let v = try reader.readAny()
                if v.tag.isConstructed {
                    try DERReader.enter(v) { (inner: inout DERReader) throws(DERError) in _ = try inner.readAny() }
                }
            } catch { thrown = error }
            #expect(thrown?.kind == .unexpectedTag)
        }
    }
}
