/// Times as seconds since 1970-01-01T00:00:00Z (negative before), the only form Sigil keeps.
public enum DERTime {
    /// Decodes a UTCTime or GeneralizedTime value in the RFC 5280 §4.1.2.5 profile:
    /// UTCTime `YYMMDDHHMMSSZ` (YY ≥ 50 → 19YY, else 20YY, §4.1.2.5.1) and GeneralizedTime
    /// `YYYYMMDDHHMMSSZ` (§4.1.2.5.2): seconds present, `Z`, no fractional seconds, and a real
    /// calendar date (month 1–12, day within the month, leap years, hour < 24, minute < 60,
    /// second < 60 — RFC 5280 does not allow leap seconds to be encoded as 60).
    @inlinable
    public static func decode(_ value: DERValue) throws(DERError) -> Int64 {
        if let t = decodePlain(value) { return t }
        return try decodeWithChecks(value)
    }

    /// A GeneralizedTime that may carry fractional seconds, as X.690 §11.7 writes them in DER
    /// (`YYYYMMDDHHMMSS.fZ`: the point, at least one digit, no trailing zero) — for OCSP, whose
    /// times RFC 6960 §4.2.1 leaves to X.690 (only RFC 5019 §2.2.4's lightweight profile, and
    /// RFC 5280 §4.1.2.5.2 for certificates and CRLs, forbid the fraction; OpenSSL reads it).
    /// The whole seconds (the fraction dropped) and whether there was a fraction, so that a
    /// caller can round each bound the strict way. Without a fraction: exactly `decode`.
    public static func decodeAllowingFraction(_ value: DERValue) throws(DERError) -> (seconds: Int64, fractional: Bool)
    {
        let s = value.contentStart
        let n = value.contentCount
        let input = value._input
        guard value.tag == .generalizedTime, n > 15, input[s + 14] == 0x2E /* . */ else {
            return (try decode(value), false)
        }
        // The fraction: digits from s + 15 to the Z, at least one, the last not 0.
        guard input[s + n - 1] == 0x5A, n >= 17 else { throw DERError(.invalidTime, at: s + 14) }
        for i in (s + 15)..<(s + n - 1) where input[i] < 0x30 || input[i] > 0x39 {
            throw DERError(.invalidTime, at: i)
        }
        if input[s + n - 2] == 0x30 { throw DERError(.invalidTime, at: s + n - 2) }
        // The whole seconds through `decode`, on `YYYYMMDDHHMMSSZ` made of the same digits.
        var whole: [UInt8] = [0x18, 0x0F]
        for i in 0..<14 { whole.append(input[s + i]) }
        whole.append(0x5A)
        let result = whole.withUnsafeBytes { (raw) -> Result<Int64, DERError> in
            do throws(DERError) {
                var r = DERReader(input: raw, from: 0, to: raw.count)
                return .success(try decode(try r.read(.generalizedTime)))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let v): return (v, true)
        case .failure(let error): throw DERError(error.kind, at: s + error.offset - 2)
        }
    }

    /// `decode` digit by digit, every check with its offset (every value `decodePlain` leaves).
    @inlinable
    static func decodeWithChecks(_ value: DERValue) throws(DERError) -> Int64 {
        if value.tag.isConstructed { throw DERError(.unexpectedTag, at: value.start) }
        let s = value.contentStart
        let n = value.contentCount
        let input = value._input
        @inline(__always) func digit(_ i: Int) throws(DERError) -> Int {
            let c = input[s + i]
            guard c >= 0x30 && c <= 0x39 else { throw DERError(.invalidTime, at: s + i) }
            return Int(c &- 0x30)
        }
        @inline(__always) func two(_ i: Int) throws(DERError) -> Int {
            try digit(i) * 10 + digit(i + 1)
        }
        var year: Int
        var i: Int
        switch value.tag {
        case .utcTime:
            guard n == 13 else { throw DERError(.invalidTime, at: value.contentStart) }
            let yy = try two(0)
            year = yy >= 50 ? 1900 + yy : 2000 + yy
            i = 2
        case .generalizedTime:
            guard n == 15 else { throw DERError(.invalidTime, at: value.contentStart) }
            year = try two(0) * 100 + two(2)
            i = 4
        default:
            throw DERError(.unexpectedTag, at: value.start)
        }
        let month = try two(i)
        let day = try two(i + 2)
        let hour = try two(i + 4)
        let minute = try two(i + 6)
        let second = try two(i + 8)
        guard input[s + i + 10] == 0x5A /* Z */ else { throw DERError(.invalidTime, at: s + i + 10) }
        guard month >= 1 && month <= 12 else { throw DERError(.invalidTime, at: s + i) }
        guard day >= 1 && day <= daysInMonth(year: year, month: month) else {
            throw DERError(.invalidTime, at: s + i + 2)
        }
        guard hour < 24 else { throw DERError(.invalidTime, at: s + i + 4) }
        guard minute < 60 else { throw DERError(.invalidTime, at: s + i + 6) }
        guard second < 60 else { throw DERError(.invalidTime, at: s + i + 8) }
        return secondsSinceEpoch(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `decode` for a valid time, read without a check per digit: the digits tested eight at
    /// a time (two overlapping words: `YYMMDDHH` and `DDHHMMSS` + `Z` for UTCTime, `YYYYMMDD`
    /// and `DHHMMSS` + `Z` for GeneralizedTime), turned into two-digit numbers four at a time
    /// (one multiply per word: 10 × the first digit of each pair plus the second), then the
    /// fields and their ranges as `decode` checks them and the day count of
    /// `daysFromCivilPlain`. Nil for anything `decode` would not accept as it is — the full
    /// path then decides and reports the offending offset (`DERTimeModelTests` compares the
    /// two, and both with a day count made by summing years and months).
    @inlinable @inline(__always)
    static func decodePlain(_ value: DERValue) -> Int64? {
        let n = value.contentCount
        let s = value.contentStart
        let input = value._input
        let utc: Bool
        switch value.tag.rawValue {
        case 0x17: utc = true  // UTCTime, primitive
        case 0x18: utc = false  // GeneralizedTime, primitive
        default: return nil
        }
        guard n == (utc ? 13 : 15), s >= 0, s <= input.count &- n else { return nil }
        let first = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: s, as: UInt64.self))
        let last = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: s &+ n &- 8, as: UInt64.self))
        guard last >> 56 == 0x5A else { return nil }  // "Z"
        // Every octet 0x30–0x39: the lowest octet outside that range sets its bit 8 in one of
        // the two terms (no borrow or carry reaches it from the octets below).
        @inline(__always) func allDigits(_ w: UInt64) -> Bool {
            ((w &- 0x3030_3030_3030_3030) | (w &+ 0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080 == 0
        }
        guard allDigits(first), allDigits(last & 0x00FF_FFFF_FFFF_FFFF | 0x3000_0000_0000_0000) else { return nil }
        // Octets 2k, 2k + 1 (the first digit of a pair in the lower octet) → 16-bit lane k
        // holds 10 × d(2k) + d(2k + 1) (at most 99: no carry between lanes).
        @inline(__always) func pairs(_ w: UInt64) -> UInt64 {
            let d = w & 0x0F0F_0F0F_0F0F_0F0F
            return ((d &* 10) &+ (d >> 8)) & 0x00FF_00FF_00FF_00FF
        }
        @inline(__always) func lane(_ p: UInt64, _ k: UInt64) -> Int {
            Int(truncatingIfNeeded: (p >> (16 &* k)) & 0xFF)
        }
        let a = pairs(first)  // UTCTime YY MM DD HH; GeneralizedTime YY YY MM DD
        let b = pairs(last >> 8)  // both: HH MM SS (the octets after the day's last digit)
        let year: Int
        let month: Int
        let day: Int
        if utc {
            let yy = lane(a, 0)
            year = yy >= 50 ? 1900 &+ yy : 2000 &+ yy
            month = lane(a, 1)
            day = lane(a, 2)
        } else {
            year = lane(a, 0) &* 100 &+ lane(a, 1)
            month = lane(a, 2)
            day = lane(a, 3)
        }
        let hour = lane(b, 0)
        let minute = lane(b, 1)
        let second = lane(b, 2)
        guard month >= 1 && month <= 12, day >= 1 && day <= daysInMonth(year: year, month: month), hour < 24,
            minute < 60, second < 60
        else { return nil }
        let days = daysFromCivilPlain(year: year, month: month, day: day)
        // In 64 bits: seconds from year 0 to 9999 exceed a 32-bit Int (wasm32, armv7em).
        return Int64(days) &* 86400 &+ Int64(hour &* 3600 &+ minute &* 60 &+ second)
    }

    /// `daysFromCivil` for the years a time's digits can spell (0–9999) and a valid date: the
    /// same era algorithm with the year moved up by one 400-year era (146 097 days), so that
    /// every quantity is non-negative and each division by a constant is a multiply and a
    /// shift, in wrapping arithmetic (nothing here can overflow).
    @inlinable @inline(__always)
    static func daysFromCivilPlain(year: Int, month: Int, day: Int) -> Int {
        let y = UInt(bitPattern: year &+ 400 &- (month <= 2 ? 1 : 0))  // 399 ... 10399
        let mp = UInt(bitPattern: month <= 2 ? month &+ 9 : month &- 3)  // March = 0
        let doy = (153 &* mp &+ 2) / 5 &+ UInt(bitPattern: day) &- 1
        let days = y &* 365 &+ y / 4 &- y / 100 &+ y / 400 &+ doy
        return Int(bitPattern: days) &- 146_097 &- 719_468
    }

    /// Proleptic Gregorian leap year.
    @inlinable
    public static func isLeapYear(_ y: Int) -> Bool {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    }

    /// Days in `month` (1–12) of `year`.
    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian civil date (era-based algorithm).
    @inlinable
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// Seconds from 1970-01-01T00:00:00Z to the given UTC civil time (no leap seconds, as in X.509).
    @inlinable
    public static func secondsSinceEpoch(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64
    {
        Int64(daysFromCivil(year: year, month: month, day: day)) * 86400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The civil date and time of `seconds` since the epoch (UTC).
    public static func components(_ seconds: Int64) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    ) {
        var days = seconds / 86400
        var rem = seconds % 86400
        if rem < 0 {
            rem += 86400
            days -= 1
        }
        let z = Int(days) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        let r = Int(rem)
        return (y, m, d, r / 3600, (r / 60) % 60, r % 60)
    }

    /// RFC 3339 rendering in UTC, e.g. `2026-11-21T09:30:00Z`.
    public static func rfc3339(_ seconds: Int64) -> String {
        // ASCII bytes, then one String (interpolating six padded Strings cost more).
        var out: [UInt8] = []
        out.reserveCapacity(24)
        appendRFC3339(seconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``rfc3339(_:)``'s ASCII to `out`, without an intermediate String.
    public static func appendRFC3339(_ seconds: Int64, to out: inout [UInt8]) { appendRFC3339(seconds, into: &out) }

    /// ``appendRFC3339(_:to:)`` into a ``ByteOutput`` (the bulk JSON writer's buffer).
    @_spi(SigilInternal)
    public static func appendRFC3339(_ seconds: Int64, to out: inout ByteOutput) { appendRFC3339(seconds, into: &out) }

    static func appendRFC3339<S: ByteSink>(_ seconds: Int64, into out: inout S) {
        let c = components(seconds)
        if c.year >= 0 && c.year < 10_000 && c.month >= 0 && c.month < 100 && c.day >= 0 && c.day < 100
            && c.hour >= 0 && c.hour < 100 && c.minute >= 0 && c.minute < 100 && c.second >= 0 && c.second < 100
        {
            // The usual case, what `pad` below writes: every field in its full width of
            // digits, `YYYY-MM-DDTHH:MM:SSZ`, in one append.
            var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &text) { t in
                func two(_ v: Int, _ at: Int) {
                    t[at] = 0x30 + UInt8(v / 10)
                    t[at + 1] = 0x30 + UInt8(v % 10)
                }
                two(c.year / 100, 0)
                two(c.year % 100, 2)
                t[4] = 0x2D
                two(c.month, 5)
                t[7] = 0x2D
                two(c.day, 8)
                t[10] = 0x54
                two(c.hour, 11)
                t[13] = 0x3A
                two(c.minute, 14)
                t[16] = 0x3A
                two(c.second, 17)
                t[19] = 0x5A
                out.append(bytes: UnsafeRawBufferPointer(rebasing: t[0..<20]))
            }
            return
        }
        func pad(_ v: Int, _ w: Int) {
            if v >= 0 && v < 10_000 {
                // The usual case: zeros in front of the digits up to `w` characters.
                let digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4
                for _ in digits..<max(w, digits) { out.append(0x30) }
                appendDecimal(UInt64(v), to: &out)
                return
            }
            // As before: zeros in front of String(v) up to `w` characters (sign included).
            var text: [UInt8] = v < 0 ? [0x2D] : []
            appendDecimal(UInt64(v.magnitude), to: &text)
            for _ in text.count..<max(w, text.count) { out.append(0x30) }
            text.withUnsafeBytes { out.append(bytes: $0) }
        }
        pad(c.year, 4)
        out.append(0x2D)
        pad(c.month, 2)
        out.append(0x2D)
        pad(c.day, 2)
        out.append(0x54)
        pad(c.hour, 2)
        out.append(0x3A)
        pad(c.minute, 2)
        out.append(0x3A)
        pad(c.second, 2)
        out.append(0x5A)
    }
}

extension DERReader {
    /// Reads a `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }`.
    @inlinable
    public mutating func readTime() throws(DERError) -> Int64 {
        let v = try readAny()
        guard v.tag == .utcTime || v.tag == .generalizedTime else { throw DERError(.unexpectedTag, at: v.start) }
        return try DERTime.decode(v)
    }
}
