/// How much of a database file holds data, as SQLite counts it in pages.
public struct FileSpace: Hashable, Sendable {
    public var pageSize: Int
    /// Pages in the file (the main file, once the write-ahead log is checkpointed).
    public var pages: Int
    /// Pages on the free list: space deleted rows left, which SQLite reuses
    /// for new rows before it grows the file.
    public var freePages: Int

    public init(pageSize: Int, pages: Int, freePages: Int) {
        self.pageSize = pageSize
        self.pages = pages
        self.freePages = freePages
    }

    public var bytes: Int { pages * pageSize }
    public var freeBytes: Int { freePages * pageSize }
    /// The share of the file that is free, 0 for an empty file.
    public var freeFraction: Double { pages == 0 ? 0 : Double(freePages) / Double(pages) }
}
