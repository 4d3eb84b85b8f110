import SigilTestSupport
import XCTest

/// Runs `sigil` as a process (`TestSupport.runSigil`), skips the test when the executable was not
/// built next to the test runner, and asserts the exit status (the message shows the command and
/// both outputs).
/// The `sigil` executable's path; skips the test when it was not built next to the test runner.
func sigilExecutable() throws -> String {
    guard let path = TestSupport.sigilExecutable else {
        throw XCTSkip("sigil executable not built next to the test runner")
    }
    return path
}

@discardableResult
func runSigil(_ args: [String], exit expected: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> (
    out: String, err: String
) {
    guard let r = try TestSupport.runSigil(args) else {
        throw XCTSkip("sigil executable not built next to the test runner")
    }
    XCTAssertEqual(
        r.status, expected, "sigil \(args.joined(separator: " "))\n\(r.out)\n\(r.err)", file: file, line: line)
    return (r.out, r.err)
}

/// `runSigil` without the status assertion.
func runSigil(_ args: [String]) throws -> TestSupport.SigilRun {
    guard let r = try TestSupport.runSigil(args) else {
        throw XCTSkip("sigil executable not built next to the test runner")
    }
    return r
}
