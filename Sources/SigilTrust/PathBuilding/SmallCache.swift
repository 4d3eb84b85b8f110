// The per-verification caches of path building (PathBuilder.swift lists what lives where in
// PathBuilding/).

/// An insert-only map from `Int` keys for one verification's caches: the first four entries
/// live inline (a 3-certificate chain needs two or three, so the common case allocates
/// nothing), further ones in a dictionary created on first overflow.
struct SmallCache<Value> {
    private var k0 = Int.min, k1 = Int.min, k2 = Int.min, k3 = Int.min
    private var v0: Value?, v1: Value?, v2: Value?, v3: Value?
    private var count = 0
    private var overflow = [Int: Value]()

    init() {}

    subscript(key: Int) -> Value? {
        get {
            if count > 0 && k0 == key { return v0 }
            if count > 1 && k1 == key { return v1 }
            if count > 2 && k2 == key { return v2 }
            if count > 3 && k3 == key { return v3 }
            return count > 4 ? overflow[key] : nil
        }
        set {
            guard let newValue else { return }  // insert-only: entries are never removed
            if count > 0 && k0 == key {
                v0 = newValue
                return
            }
            if count > 1 && k1 == key {
                v1 = newValue
                return
            }
            if count > 2 && k2 == key {
                v2 = newValue
                return
            }
            if count > 3 && k3 == key {
                v3 = newValue
                return
            }
            switch count {
            case 0:
                k0 = key
                v0 = newValue
            case 1:
                k1 = key
                v1 = newValue
            case 2:
                k2 = key
                v2 = newValue
            case 3:
                k3 = key
                v3 = newValue
            default:
                if overflow[key] == nil { count += 1 }  // count > 4 means "look in overflow"
                overflow[key] = newValue
                return
            }
            count += 1
        }
    }
}
