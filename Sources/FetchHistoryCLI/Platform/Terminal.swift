#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What standard output is: how wide, and whether it wants colour.
enum Terminal {
    /// Whether to colour standard output under the `--color` `choice`:
    /// `always` or `never`, else (`auto`) only on a terminal that can show
    /// colour — TERM is not `dumb` — and only when NO_COLOR (no-color.org)
    /// is unset or empty.
    static func wantsColor(_ choice: ColorChoice) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto:
            guard isStandardOutput, Environment.variable("TERM") != "dumb" else { return false }
            return (Environment.variable("NO_COLOR") ?? "").isEmpty
        }
    }

    /// How many columns a line may take: COLUMNS when it is a positive
    /// number (the user's word, even for a pipe, as `ls` reads it), else the
    /// terminal's own width when standard output is one, else nil —
    /// unlimited, for files and pipes, where nothing should be cut.
    static var width: Int? {
        if let columns = Environment.variable("COLUMNS").flatMap({ Int($0) }), columns > 0 { return columns }
        guard isStandardOutput else { return nil }
        var size = winsize()
        // The C boundary: TIOCGWINSZ fills the winsize it is handed.
        let result = withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        return result == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// Whether standard output is a terminal (not a file or a pipe).
    static var isStandardOutput: Bool { isatty(STDOUT_FILENO) == 1 }
}
