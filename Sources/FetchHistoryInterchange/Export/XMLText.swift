/// Text made safe to put inside an XML 1.0 element or a double-quoted
/// attribute.
///
/// Markup characters are escaped; characters XML 1.0 cannot hold at all (C0
/// controls but tab and the line ends, unpaired surrogates cannot occur in a
/// Swift string, U+FFFE and U+FFFF) are replaced by U+FFFD, since no escape
/// makes them legal. In attributes the line ends and tab are written as
/// character references, so a reader's attribute normalisation keeps them.
enum XMLText {
    static func escaped(_ text: String, inAttribute: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\n" where inAttribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out.unicodeScalars.append("\u{FFFD}")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
