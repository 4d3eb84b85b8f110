#if NIO
import NIOCore
import NIOSSL
public enum SigilNIOProbe { public static let enabled = true }
#else
public enum SigilNIOProbe { public static let enabled = false }
#endif
