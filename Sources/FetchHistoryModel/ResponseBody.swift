/// The start of a failed answer's body, as the history keeps it: read as
/// UTF-8 (a byte that is not is U+FFFD), secrets hidden (`RedactedBody`),
/// then cut to at most the kept number of bytes, at a code point's end.
///
/// ```swift
/// let body = ResponseBody(keeping: Array(#"{"error":"busy","token":"abc"}"#.utf8),
///                         contentType: "application/json", limit: 1024)
/// body.text          // {"error":"busy","token":"***"}
/// body.isTruncated   // false
/// ```
public struct ResponseBody: Hashable, Sendable {
    /// How much of a body is kept unless asked otherwise: 1 KiB.
    public static let defaultLimit = 1024
    /// The most that may be kept: 64 KiB.
    public static let maximumLimit = 64 * 1024

    /// The body's start, secrets hidden.
    public var text: String
    /// The answer's Content-Type, as the server sent it; nil when it sent none.
    public var contentType: String?
    /// The body went on past `text`: it was cut at the limit (or the
    /// source stopped reading it at its own cap).
    public var isTruncated: Bool

    public init(text: String, contentType: String?, isTruncated: Bool) {
        self.text = text
        self.contentType = contentType
        self.isTruncated = isTruncated
    }

    /// What the history keeps of `body`: its secrets hidden, then its first
    /// `limit` bytes (cut back to a code point's end); truncated when
    /// anything was cut, or when `bodyWasCut` says the body read was itself
    /// only a part.
    public init(keeping body: some Collection<UInt8>, contentType: String?, limit: Int, bodyWasCut: Bool = false) {
        let hidden = Array(RedactedBody(String(decoding: body, as: UTF8.self), contentType: contentType).description.utf8)
        // Cut back to a code point's first byte: never half a character.
        var end = min(limit, hidden.count)
        while end > 0, end < hidden.count, hidden[end] & 0xC0 == 0x80 { end -= 1 }
        text = String(decoding: hidden[..<end], as: UTF8.self)
        self.contentType = contentType
        isTruncated = bodyWasCut || end < hidden.count
    }
}
