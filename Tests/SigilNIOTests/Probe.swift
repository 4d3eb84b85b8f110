import XCTest
import SigilNIO
final class SigilNIOProbeTests: XCTestCase {
    func testProbe() { print("NIO enabled:", SigilNIOProbe.enabled) }
}
