extension String {
    /// The file's folder (empty for a bare name) and its name, taking this
    /// text as a POSIX path.
    var folderAndName: (folder: String, name: String) {
        guard let slash = lastIndex(of: "/") else { return ("", self) }
        return (slash == startIndex ? "/" : String(self[..<slash]), String(self[index(after: slash)...]))
    }
}
