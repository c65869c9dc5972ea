extension String {
    /// How many characters must be inserted, deleted or replaced to turn
    /// `other` into this (Levenshtein): how close a mistyped command is.
    func editDistance(to other: String) -> Int {
        let (a, b) = (Array(self), Array(other))
        guard !a.isEmpty, !b.isEmpty else { return a.count + b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
