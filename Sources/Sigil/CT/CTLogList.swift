import SigilCrypto
@_spi(SigilInternal) import SigilDER
import SigilX509

/// A log's state in a log list (the v3 schema of the public log lists; Apple's v4 list uses the
/// same names): when it entered that state is `CTLog.stateTimestamp`.
public enum CTLogState: String, Sendable, Hashable {
    /// Applied for inclusion, not yet accepted: its SCTs never count.
    case pending
    /// Accepted into the program (from the state's timestamp on): its SCTs count.
    case qualified
    /// Qualified and trusted by clients: its SCTs count.
    case usable
    /// Frozen, no longer accepting entries; approved until its timestamp, then "once approved".
    case readonly
    /// No longer trusted: its SCTs count only as "once approved" and only if issued before its
    /// timestamp.
    case retired
    /// Never accepted: its SCTs never count.
    case rejected
}

/// A log's verification key, decoded once when the list is loaded (RFC 6962 §3.2: ECDSA
/// P-256 or RSA; Sigil takes RSA only with a modulus of at least 2048 bits).
public enum CTLogKey: Sendable {
    /// ECDSA on P-256 (`id-ecPublicKey`, `secp256r1`).
    case p256(ECDSAPublicKey)
    /// RSA with a modulus of at least 2048 bits.
    case rsa(RSAPublicKey)
}

/// One log of a log list.
public struct CTLog: Sendable {
    /// `description`.
    public let name: String
    /// The operator's `name`.
    public let operatorName: String
    /// `log_id`: SHA-256 of `key` (checked when loading).
    public let logID: [UInt8]
    /// `key`: the DER SubjectPublicKeyInfo.
    public let keyDER: [UInt8]
    /// The key, decoded.
    public let key: CTLogKey
    /// The state, or nil when the list gives none.
    public let state: CTLogState?
    /// When the log entered `state` (seconds since the epoch).
    public let stateTimestamp: Int64?
    /// `temporal_interval` [start_inclusive, end_exclusive): the certificates whose notAfter
    /// falls within are the only ones the log accepts.
    public let temporalInterval: (start: Int64, end: Int64)?
    /// From `tiled_logs` (a static-CT-API log) rather than `logs` (an RFC 6962 log).
    public let isTiled: Bool
    /// `mmd` in seconds, when given.
    public let maximumMergeDelay: Int64?
    /// `previous_operators` (v3 schema): who operated the log before `operatorName`, each until
    /// its `end_time` (seconds since the epoch), sorted by `end_time`; empty when not given.
    public let previousOperators: [(name: String, endTime: Int64)]

    /// The operator of the log when it issued an SCT at `timestamp` (milliseconds since the
    /// epoch, as in the SCT): Chrome's CT policy, "each SCT's log operator is determined to be
    /// the operator at the time of SCT issuance, by comparing the SCT timestamp against the
    /// `previous_operators` timestamps" — the first previous operator whose `end_time` (the final
    /// timestamp it operated the log) is not before the SCT, else the current one.
    public func operatorName(forSCTAt timestamp: UInt64) -> String {
        for p in previousOperators where p.endTime >= 0 && timestamp <= UInt64(p.endTime) * 1000 {
            return p.name
        }
        return operatorName
    }

    /// Whether an SCT this log issued at `timestamp` comes from a log "once or currently
    /// approved at the time of check" `time` (Apple's CT policy, support.apple.com/103214,
    /// "Policy requirements", first sentence; the states of the log lists' v3 schema and Apple's
    /// v4 list, whose `state.*.timestamp` is when the log entered the state):
    /// - `qualified` / `usable` since T: approved from T on — at a time of check before T the
    ///   list says nothing of an earlier approval, so the log is not approved then (fail closed);
    /// - `readonly` / `retired` since T: approved up to T, so an SCT issued before T counts as
    ///   from a once-approved log; one issued at or after T does not;
    /// - `pending` / `rejected`, or no state: never.
    public func acceptsSCT(issuedAt timestamp: Int64, at time: Int64) -> Bool {
        switch state {
        case .qualified?, .usable?:
            return stateTimestamp.map { time >= $0 } ?? true
        case .readonly?, .retired?:
            guard let t = stateTimestamp else { return false }
            return timestamp < t
        case .pending?, .rejected?, nil: return false
        }
    }

    /// Whether the log is "currently approved" at the time of check `time` (Apple's CT policy,
    /// both alternatives of "Policy requirements" need SCTs from currently approved logs):
    /// `qualified` / `usable` from their state's timestamp on; `readonly` / `retired` only
    /// before theirs (until then the log was approved — those states follow approval); never
    /// `pending` / `rejected`.
    public func isCurrentlyApproved(at time: Int64) -> Bool {
        switch state {
        case .qualified?, .usable?:
            return stateTimestamp.map { time >= $0 } ?? true
        case .readonly?, .retired?:
            guard let t = stateTimestamp else { return false }
            return time < t
        case .pending?, .rejected?, nil: return false
        }
    }
}

extension CTLog {
    /// Whether the log is `Qualified`, `Usable` or `ReadOnly` at the time of check `time`, the
    /// states Chrome's CT policy asks of "at least one Embedded SCT" and of every SCT delivered by
    /// OCSP or TLS (GoogleChrome/CertificateTransparency ct_policy.md, "CT Compliant
    /// Certificates"): `qualified` / `usable` from their state's timestamp on; `readonly` at any
    /// time (before its timestamp the log was in an earlier accepted state, Qualified → Usable →
    /// ReadOnly); `retired` only before its timestamp; never `pending` / `rejected` / no state.
    public func isQualifiedUsableOrReadOnly(at time: Int64) -> Bool {
        switch state {
        case .qualified?, .usable?:
            return stateTimestamp.map { time >= $0 } ?? true
        case .readonly?:
            return true
        case .retired?:
            guard let t = stateTimestamp else { return false }
            return time < t
        case .pending?, .rejected?, nil: return false
        }
    }
}

/// Why a log list could not be loaded.
public struct CTLogListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A description (with a JSON byte offset or the log's position when known).
    public let message: String
    /// The description.
    public var description: String { message }
}

/// A Certificate Transparency log list: data the caller loads (from a file it ships or fetched
/// by its own means); nothing in the library reaches the network. Reads the v3 JSON of the
/// public log lists (`operators[].logs[]`, and `operators[].tiled_logs[]` where a list has them)
/// and Apple's current list (schema v4: the same `operators[].logs[]` members).
public struct CTLogList: Sendable {
    /// Every log, RFC 6962 and tiled.
    public let logs: [CTLog]
    /// Whether the list has any tiled log (then Apple requires one SCT from an RFC 6962 log).
    public var hasTiledLogs: Bool { logs.contains { $0.isTiled } }
    /// `version` when given.
    public let version: String?

    /// The log whose ID is `id`.
    public func log(id: [UInt8]) -> CTLog? { logs.first { $0.logID == id } }

    /// A list from logs already in hand.
    public init(logs: [CTLog], version: String? = nil) {
        self.logs = logs
        self.version = version
    }

    /// Parses a log list JSON document. Every log must carry a base64 `log_id` equal to SHA-256
    /// of its base64 DER `key` (RFC 6962 §3.2), an ECDSA P-256 or RSA ≥ 2048 key, and known
    /// state names; anything else refuses the whole list (a list is trust configuration: half
    /// loading it would hide the error).
    public init(json bytes: [UInt8]) throws(CTLogListError) {
        let root: StrictJSON
        do { root = try StrictJSON.parse(bytes) } catch {
            throw CTLogListError(message: "log list JSON: \(error.message) at byte \(error.offset)")
        }
        guard let operators = root["operators"]?.array else {
            throw CTLogListError(message: "log list: no \"operators\" array")
        }
        var logs: [CTLog] = []
        for (oi, op) in operators.enumerated() {
            guard let opName = op["name"]?.string else {
                throw CTLogListError(message: "log list: operators[\(oi)] has no name")
            }
            for (member, tiled) in [("logs", false), ("tiled_logs", true)] {
                guard let entry = op[member] else { continue }
                guard let list = entry.array else {
                    throw CTLogListError(message: "log list: operators[\(oi)].\(member) is not an array")
                }
                for (li, l) in list.enumerated() {
                    let at = "operators[\(oi)].\(member)[\(li)]"
                    let log = try CTLogList.log(l, operatorName: opName, tiled: tiled, at: at)
                    // One log, one description: a log listed twice (say usable and rejected)
                    // would be judged by whichever entry came first.
                    if logs.contains(where: { $0.logID == log.logID }) {
                        throw CTLogListError(message: "log list: \(at) lists a log_id listed before")
                    }
                    logs.append(log)
                }
            }
        }
        self.logs = logs
        self.version = root["version"]?.string ?? root["log_list_timestamp"]?.string
    }

    static func log(_ l: StrictJSON, operatorName: String, tiled: Bool, at: String) throws(CTLogListError) -> CTLog {
        guard let idText = l["log_id"]?.string, let id = Base64.decode(Array(idText.utf8)), id.count == 32 else {
            throw CTLogListError(message: "log list: \(at).log_id is not 32 base64 bytes")
        }
        guard let keyText = l["key"]?.string, let key = Base64.decode(Array(keyText.utf8)) else {
            throw CTLogListError(message: "log list: \(at).key is not base64")
        }
        // RFC 6962 §3.2: "The ID of the log is the SHA-256 hash of the log's public key".
        guard SHA256.hash(key).bytes == id else {
            throw CTLogListError(message: "log list: \(at).log_id is not SHA-256 of its key")
        }
        guard let decoded = decodeLogKey(key) else {
            throw CTLogListError(message: "log list: \(at).key is not an ECDSA P-256 or RSA >= 2048 key")
        }
        var state: CTLogState? = nil
        var stateTime: Int64? = nil
        if let s = l["state"] {
            guard case .object(let o) = s, o.count == 1, let (name, v) = o.first else {
                throw CTLogListError(message: "log list: \(at).state must hold exactly one state")
            }
            guard let st = CTLogState(rawValue: name) else {
                throw CTLogListError(message: "log list: \(at).state \"\(name)\" is unknown")
            }
            state = st
            // The v3 schema and Apple's v4 require `timestamp`, an RFC 3339 string, in every
            // state: without it a retirement or freeze cannot be compared with an SCT, and a
            // qualified or usable state would hold "since always" — a timestamp of another type
            // was read that way and a log not yet usable counted (found by review, 2026-12-04).
            guard case .object = v, let ts = v["timestamp"]?.string else {
                throw CTLogListError(message: "log list: \(at).state.\(name) has no timestamp string")
            }
            guard let t = CTLogList.parseRFC3339(ts) else {
                throw CTLogListError(message: "log list: \(at).state.\(name).timestamp is not RFC 3339")
            }
            stateTime = t
        }
        var interval: (Int64, Int64)? = nil
        if let ti = l["temporal_interval"] {
            guard let a = ti["start_inclusive"]?.string.flatMap(parseRFC3339),
                let b = ti["end_exclusive"]?.string.flatMap(parseRFC3339)
            else { throw CTLogListError(message: "log list: \(at).temporal_interval is malformed") }
            interval = (a, b)
        }
        var previous: [(name: String, endTime: Int64)] = []
        if let po = l["previous_operators"] {
            // Who ran the log, and until when, decides which operator an SCT counts for: a
            // malformed entry refuses the list (fail closed), never drops the history.
            guard let entries = po.array else {
                throw CTLogListError(message: "log list: \(at).previous_operators is not an array")
            }
            for (pi, p) in entries.enumerated() {
                guard let name = p["name"]?.string, let end = p["end_time"]?.string.flatMap(parseRFC3339) else {
                    throw CTLogListError(message: "log list: \(at).previous_operators[\(pi)] is malformed")
                }
                previous.append((name, end))
            }
            previous.sort { $0.endTime < $1.endTime }
        }
        return CTLog(
            name: l["description"]?.string ?? "", operatorName: operatorName, logID: id, keyDER: key, key: decoded,
            state: state, stateTimestamp: stateTime, temporalInterval: interval, isTiled: tiled,
            maximumMergeDelay: l["mmd"]?.int, previousOperators: previous)
    }

    /// Decodes a SubjectPublicKeyInfo into a CT log key: id-ecPublicKey on P-256, or
    /// rsaEncryption with a modulus of at least 2048 bits.
    public static func decodeLogKey(_ spki: [UInt8]) -> CTLogKey? {
        let parts: (PublicKeyAlgorithm, [UInt8])?? = try? spki.withUnsafeBytes {
            (b) throws(DERError) -> (PublicKeyAlgorithm, [UInt8])? in
            var r = DERReader(b)
            let seq = try r.read(.sequence)
            try r.finish()
            var s = DERReader(input: b, from: seq.contentStart, to: seq.end)
            let alg = try s.read(.sequence)
            let bits = try s.read(.bitString).decodeBitString()
            try s.finish()
            guard bits.unusedBits == 0 else { return nil }
            let a = try PublicKeyAlgorithm(algorithmIdentifier: Array(alg.encoded))
            return (a, Array(b[bits.offset..<seq.end]))
        }
        guard let (alg, key) = parts ?? nil else { return nil }
        switch alg {
        case .ec(.p256):
            return key.withUnsafeBytes { k in (try? ECDSAPublicKey(curve: .p256, x963: k)).map { .p256($0) } }
        case .rsa:
            guard let k = try? RSAPublicKey(pkcs1DER: key), k.bitCount >= 2048 else { return nil }
            return .rsa(k)
        default:
            return nil
        }
    }
}

extension CTLogList {
    /// RFC 3339 `date-time` in UTC (`Z`), fractional seconds allowed and dropped: seconds since the
    /// epoch, or nil.
    public static func parseRFC3339(_ s: String) -> Int64? {
        let b = Array(s.utf8)
        guard b.count >= 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74, b[13] == 0x3A, b[16] == 0x3A
        else { return nil }
        func num(_ i: Int, _ n: Int) -> Int? {
            var v = 0
            for k in i..<i + n {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
            let se = num(17, 2)
        else { return nil }
        var i = 19
        if b[i] == 0x2E {
            i += 1
            let st = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            guard i > st else { return nil }
        }
        guard i == b.count - 1, b[i] == 0x5A || b[i] == 0x7A else { return nil }
        guard (1...12).contains(mo), d >= 1, d <= DERTime.daysInMonth(year: y, month: mo), h < 24, mi < 60, se < 60
        else { return nil }
        return DERTime.secondsSinceEpoch(year: y, month: mo, day: d, hour: h, minute: mi, second: se)
    }
}

/// The former free-function spelling of `CTLogList.parseRFC3339(_:)`.
@available(*, deprecated, renamed: "CTLogList.parseRFC3339(_:)")
public func parseRFC3339(_ s: String) -> Int64? {
    CTLogList.parseRFC3339(s)
}
