/// What giving a history's free space back did (`prune`, `delete`): the
/// file before and after, and whether it was rewritten.
public struct ReclaimedSpace: Hashable, Sendable {
    /// Whether the file was rewritten, and if not, why.
    public enum Outcome: Hashable, Sendable {
        /// Rewritten: its free pages went back to the file system.
        case rewritten
        /// Less than `minimumFreeFraction` of it was free: the free pages
        /// stay, and new fetches reuse them before the file grows.
        case belowThreshold(minimumFreeFraction: Double)
        /// Another process kept the file locked; the free pages stay.
        case locked
    }

    public var before: FileSpace
    public var after: FileSpace
    public var outcome: Outcome

    public init(before: FileSpace, after: FileSpace, outcome: Outcome) {
        self.before = before
        self.after = after
        self.outcome = outcome
    }
}
