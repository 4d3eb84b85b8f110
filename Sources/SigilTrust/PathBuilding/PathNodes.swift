// The inline collections of path building (PathBuilder.swift lists what lives where in
// PathBuilding/).

/// The nodes of the path being built, leaf first, held inline: a path never exceeds
/// `ChainVerifier.maximumPathLength` (16) certificates — `extend` refuses a longer one before
/// appending — so no array is allocated per verification.
struct PathNodes: RandomAccessCollection {
    private var storage: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0
    static let capacity = 16

    init() {}
    init(_ node: Int) { append(node) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Int {
        precondition(i >= 0 && i < count)
        return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: i * MemoryLayout<Int>.stride, as: Int.self) }
    }

    /// Appends `node`; the caller has checked `count < capacity` (a longer path is refused
    /// with `maximumDepthExceeded` before this is reached).
    mutating func append(_ node: Int) {
        precondition(count < PathNodes.capacity)
        let i = count
        withUnsafeMutableBytes(of: &storage) {
            $0.storeBytes(of: node, toByteOffset: i * MemoryLayout<Int>.stride, as: Int.self)
        }
        count += 1
    }

    mutating func removeLast() {
        precondition(count > 0)
        count -= 1
    }
}

/// The candidate issuers of one certificate (nodes, in the order they are tried): the first
/// eight inline, further ones in an array made on first overflow, so that looking up the usual
/// one or two candidates allocates nothing.
struct CandidateList {
    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var overflow: [Int] = []
    private(set) var count = 0
    static let inlineCapacity = 8

    init() {}

    subscript(i: Int) -> Int {
        get {
            precondition(i >= 0 && i < count)
            if i >= CandidateList.inlineCapacity { return overflow[i - CandidateList.inlineCapacity] }
            return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: i * MemoryLayout<Int>.stride, as: Int.self) }
        }
        set {
            precondition(i >= 0 && i < count)
            if i >= CandidateList.inlineCapacity {
                overflow[i - CandidateList.inlineCapacity] = newValue
                return
            }
            withUnsafeMutableBytes(of: &inline) {
                $0.storeBytes(of: newValue, toByteOffset: i * MemoryLayout<Int>.stride, as: Int.self)
            }
        }
    }

    mutating func append(_ node: Int) {
        if count >= CandidateList.inlineCapacity {
            overflow.append(node)
            count += 1
            return
        }
        count += 1
        self[count - 1] = node
    }

    /// True when `node` is in the first `prefix` entries.
    func contains(_ node: Int, inFirst prefix: Int) -> Bool {
        for i in 0..<min(prefix, count) where self[i] == node { return true }
        return false
    }
}
