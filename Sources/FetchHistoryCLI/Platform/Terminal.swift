import Glibc
import Synchronization

/// What standard output is: how wide, and whether it wants colour.
enum Terminal {
    /// The `--color` choice of this run, set once while the command line is
    /// parsed (`DatabaseOptions.validate`), read when printing.
    private static let colorChoice = Mutex(ColorChoice.auto)

    static func choose(_ choice: ColorChoice) {
        colorChoice.withLock { $0 = choice }
    }

    /// Whether to colour standard output: `--color always` or `never`, else
    /// (`auto`) only on a terminal that can show colour — TERM is not `dumb`
    /// — and only when NO_COLOR (no-color.org) is unset or empty.
    static var wantsColor: Bool {
        switch colorChoice.withLock({ $0 }) {
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
