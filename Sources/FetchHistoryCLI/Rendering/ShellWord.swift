/// Words written so that a POSIX shell reads them back unchanged, for the
/// commands an error message tells the user to run.
enum ShellWord {
    /// `word` as is when the shell would not change it, else in single quotes.
    ///
    ///     ShellWord.quoted("--count")        // --count
    ///     ShellWord.quoted("http://h/n?a=1") // 'http://h/n?a=1'
    ///     ShellWord.quoted("it's")           // 'it'\''s'
    static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "-_./:=,@+%".utf8.contains(byte)
            }
        }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
