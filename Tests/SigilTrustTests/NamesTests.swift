import XCTest
@testable import SigilTrust
