extension String {
    /// The text filled with spaces to `width` characters, on the right (or
    /// on the left, for numbers), for aligned columns. Longer text is left
    /// whole: a wide cell pushes its row out rather than losing characters.
    func padded(to width: Int, right: Bool = false) -> String {
        let filling = String(repeating: " ", count: Swift.max(0, width - count))
        return right ? filling + self : self + filling
    }

    /// The text cut to `width` characters, its last one an ellipsis when
    /// cut: for a column that must not push the ones after it.
    func shortened(to width: Int) -> String {
        count <= width ? self : prefix(width - 1) + "…"
    }

    /// The file's folder (empty for a bare name) and its name.
    var folderAndName: (folder: String, name: String) {
        guard let slash = lastIndex(of: "/") else { return ("", self) }
        return (slash == startIndex ? "/" : String(self[..<slash]), String(self[index(after: slash)...]))
    }
}
