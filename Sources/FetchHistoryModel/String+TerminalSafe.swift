extension String {
    /// The text with control characters written as visible escapes (`\x1b`,
    /// `\r`, …), for human-readable output. Recorded text comes from servers
    /// and imported files: printed raw, an escape sequence could move the
    /// cursor, retitle the terminal or hide what was printed before it.
    /// Bidirectional overrides are escaped too, so text cannot appear reversed.
    /// In the model, so that a message made from such text (an HTTP body, an
    /// import file's first line) is safe before anything prints it.
    package var terminalSafe: String {
        // Printable ASCII, nearly all recorded text, is safe as it is: told from its bytes.
        if utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return self }
        guard unicodeScalars.contains(where: Self.isUnsafe) else { return self }
        var safe = ""
        for scalar in unicodeScalars {
            guard Self.isUnsafe(scalar) else {
                safe.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": safe += "\\n"
            case "\r": safe += "\\r"
            case "\t": safe += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                safe += scalar.value < 0x100
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u{" + hex + "}"
            }
        }
        return safe
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII's control characters are C0 and DEL; looking a scalar's category up is the costly part.
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        return scalar.properties.generalCategory == .control
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
