import Foundation

enum TestSupport {
    /// The package root (the directory holding Package.swift).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    static var fixtures: URL { packageRoot.appendingPathComponent("Fixtures") }

    static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `/etc/ssl/certs/*.pem` (one root per file on Debian), sorted; empty when absent.
    static func systemRootFiles() -> [String] {
        let dir = "/etc/ssl/certs"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return names.filter { $0.hasSuffix(".pem") }.sorted().map { dir + "/" + $0 }
    }
}
