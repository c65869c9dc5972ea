/// What went wrong with a fetch that did not succeed, as a short key that
/// is the same for every fetch that failed the same way — what `stats --by
/// problem` groups by and `--problem KEY` selects.
///
/// The key is computed from what was recorded, never stored, so it reads
/// the same from a file and from a team history, and from fetches recorded
/// before it existed:
/// - `HTTP 503` for a failure with an HTTP status outside 2xx;
/// - `timed out`, `cancelled`, `interrupted` for those outcomes;
/// - any other failure, its error with what varies between occurrences
///   masked (`masked(_:)`): `user 17 not found` and `user 42 not found`
///   are the one problem `user <n> not found`.
///
/// A fetch that succeeded, or is still running, has no problem.
///
/// ```swift
/// Problem(of: fetch)?.key   // "connection refused by <ip>"
/// ```
public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The key, as `stats --by problem` prints it.
    public let key: String

    public init(key: String) {
        self.key = key
    }

    public var description: String { key }

    /// The problem of `fetch`; nil when it succeeded or is still running.
    public init?(of fetch: Fetch) {
        guard let key = Self.key(outcome: fetch.status, error: fetch.errorMessage, httpStatus: fetch.response?.status) else {
            return nil
        }
        self.key = key
    }

    /// The key from the parts of a fetch it depends on; nil for an outcome
    /// that is no problem. For stores that read these columns alone.
    public static func key(outcome: FetchStatus, error: String?, httpStatus: Int?) -> String? {
        switch outcome {
        case .running, .succeeded: nil
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .interrupted: "interrupted"
        case .failed:
            if let httpStatus, !(200...299).contains(httpStatus) {
                "HTTP \(httpStatus)"
            } else {
                masked(error ?? "")
            }
        }
    }

    /// `text` with what varies between occurrences of one problem masked,
    /// scanning left to right and taking the first rule that matches:
    /// - a URL (`scheme://…` up to white space or a closing quote or bracket): `<url>`;
    /// - a quoted string (`"…"`, `'…'`, `“…”`): `"…"`;
    /// - a UUID: `<uuid>`;
    /// - an IPv4 address, with its port if any (`10.0.0.7:8080`), or an IPv6
    ///   one in brackets with its port (`[::1]:5432`): `<ip>`;
    /// - a run of 8 or more hexadecimal digits holding a digit (an id, a
    ///   hash): `<hex>`;
    /// - a number, with its sign, fraction and exponent: `<n>`.
    /// White space runs become one space, and the ends are trimmed.
    ///
    /// ```swift
    /// Problem.masked("user 17 not found")                       // "user <n> not found"
    /// Problem.masked("connection refused by 10.0.0.7:8080")     // "connection refused by <ip>"
    /// ```
    public static func masked(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        var pendingSpace = false
        func emit(_ piece: String) {
            if pendingSpace, !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(contentsOf: piece.unicodeScalars)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                pendingSpace = true
                index += 1
                continue
            }
            if let end = url(scalars, at: index) {
                emit("<url>")
                index = end
            } else if let end = quoted(scalars, at: index) {
                emit("\"…\"")
                index = end
            } else if let end = uuid(scalars, at: index) {
                emit("<uuid>")
                index = end
            } else if let end = ipAddress(scalars, at: index) {
                emit("<ip>")
                index = end
            } else if let end = hexRun(scalars, at: index) {
                emit("<hex>")
                index = end
            } else if let end = number(scalars, at: index) {
                emit("<n>")
                index = end
            } else {
                emit(String(scalar))
                index += 1
            }
        }
        return String(out)
    }

    // MARK: - The rules, each the end of what it matched at `start`, or nil

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }
    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || isDigit(scalar) || scalar == "_"
    }

    /// Whether `start` begins a word: masking inside `v2` or `abc123` would
    /// split names that do not vary.
    private static func startsWord(_ scalars: [Unicode.Scalar], _ start: Int) -> Bool {
        start == 0 || !isWordCharacter(scalars[start - 1])
    }

    private static func endsWord(_ scalars: [Unicode.Scalar], _ end: Int) -> Bool {
        end == scalars.count || !isWordCharacter(scalars[end])
    }

    private static func url(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        guard scalars[start].properties.isAlphabetic, startsWord(scalars, start) else { return nil }
        var index = start
        while index < scalars.count, scalars[index].properties.isAlphabetic || isDigit(scalars[index]) || "+-.".unicodeScalars.contains(scalars[index]) {
            index += 1
        }
        guard index + 2 < scalars.count, scalars[index] == ":", scalars[index + 1] == "/", scalars[index + 2] == "/" else { return nil }
        index += 3
        while index < scalars.count, !scalars[index].properties.isWhitespace, !"\"'”)>]".unicodeScalars.contains(scalars[index]) {
            index += 1
        }
        return index
    }

    private static func quoted(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let closing: Unicode.Scalar
        switch scalars[start] {
        case "\"": closing = "\""
        case "'":
            // An apostrophe in a word (`can't`) opens nothing.
            guard startsWord(scalars, start) else { return nil }
            closing = "'"
        case "“": closing = "”"
        default: return nil
        }
        var index = start + 1
        while index < scalars.count {
            if scalars[index] == "\\" { index += 2; continue }
            if scalars[index] == closing { return index + 1 }
            index += 1
        }
        return nil
    }

    private static func uuid(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let groups = [8, 4, 4, 4, 12]
        guard startsWord(scalars, start) else { return nil }
        var index = start
        for (number, length) in groups.enumerated() {
            if number > 0 {
                guard index < scalars.count, scalars[index] == "-" else { return nil }
                index += 1
            }
            for _ in 0..<length {
                guard index < scalars.count, isHex(scalars[index]) else { return nil }
                index += 1
            }
        }
        return endsWord(scalars, index) ? index : nil
    }

    private static func ipAddress(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        var index = start
        if scalars[start] == "[" {
            // [IPv6]: hex digits, colons and dots up to the closing bracket.
            index += 1
            var colons = 0
            while index < scalars.count, isHex(scalars[index]) || scalars[index] == ":" || scalars[index] == "." {
                if scalars[index] == ":" { colons += 1 }
                index += 1
            }
            guard colons >= 2, index < scalars.count, scalars[index] == "]" else { return nil }
            index += 1
        } else {
            guard startsWord(scalars, start) else { return nil }
            for part in 0..<4 {
                if part > 0 {
                    guard index < scalars.count, scalars[index] == "." else { return nil }
                    index += 1
                }
                let digits = index
                while index < scalars.count, isDigit(scalars[index]), index - digits < 3 { index += 1 }
                guard index > digits else { return nil }
            }
            guard endsWord(scalars, index) || scalars[index] == ":" else { return nil }
        }
        // A port.
        if index + 1 < scalars.count, scalars[index] == ":", isDigit(scalars[index + 1]) {
            index += 1
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        return endsWord(scalars, index) ? index : nil
    }

    private static func hexRun(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        guard startsWord(scalars, start) else { return nil }
        var index = start
        var hasDigit = false
        while index < scalars.count, isHex(scalars[index]) {
            if isDigit(scalars[index]) { hasDigit = true }
            index += 1
        }
        return index - start >= 8 && hasDigit && endsWord(scalars, index) ? index : nil
    }

    private static func number(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        var index = start
        if scalars[index] == "-" || scalars[index] == "+" {
            guard index + 1 < scalars.count, isDigit(scalars[index + 1]), startsWord(scalars, start) else { return nil }
            index += 1
        } else {
            guard isDigit(scalars[index]), startsWord(scalars, start) else { return nil }
        }
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        if index + 1 < scalars.count, scalars[index] == ".", isDigit(scalars[index + 1]) {
            index += 1
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        if index + 1 < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var exponent = index + 1
            if exponent < scalars.count, scalars[exponent] == "-" || scalars[exponent] == "+" { exponent += 1 }
            if exponent < scalars.count, isDigit(scalars[exponent]) {
                index = exponent
                while index < scalars.count, isDigit(scalars[index]) { index += 1 }
            }
        }
        // A unit glued to the number (`30ms`, `2s`) varies with it: mask the number, keep the unit.
        return index
    }
}
