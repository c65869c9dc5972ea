extension ShellWord {
    /// `word` as a POSIX shell would pass it on, for the words of a command
    /// line that completion gets as they were typed: quotes removed, a
    /// backslash's character kept. A quote still open (the word being typed)
    /// runs to the end. No expansion: `~` is left to `DatabaseOptions`, and
    /// `$` stays a dollar sign.
    ///
    ///     ShellWord.unquoted("'my history.sqlite'")  // my history.sqlite
    ///     ShellWord.unquoted(#"my\ history.sqlite"#) // my history.sqlite
    ///     ShellWord.unquoted(#""http://h/n"#)        // http://h/n
    static func unquoted(_ word: String) -> String {
        enum Quote { case none, single, double }
        var result = ""
        var quote = Quote.none
        var escaped = false
        for character in word {
            if escaped {
                // Inside double quotes a backslash escapes only these.
                if quote == .double, !"$`\"\\\n".contains(character) { result.append("\\") }
                result.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case (.none, "'"): quote = .single
            case (.none, "\""): quote = .double
            case (.single, "'"), (.double, "\""): quote = .none
            case (.none, "\\"), (.double, "\\"): escaped = true
            default: result.append(character)
            }
        }
        return result
    }
}
