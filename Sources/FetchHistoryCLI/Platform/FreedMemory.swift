#if canImport(Glibc)
import Glibc
#endif

/// What the C library's malloc does with memory the program frees: the one
/// place the commands reach into it, for `import`.
enum FreedMemory {
    /// Keeps freed memory for reuse rather than handing it back to the
    /// kernel at once: raises glibc's trim threshold from 128 KiB to 64 MiB.
    ///
    /// Why: SQLite opens and frees a temporary B-tree for every INSERT (the
    /// schema's `CHECK (… IN (…))` lists). At the default threshold each free
    /// gave the top of the heap back and the next INSERT took it again:
    /// 772,509 `brk` calls importing 1M fetches, and the kernel time doubled
    /// (25–27 s against 12 s; 53–60 s against 35–37 s in all). Keeping it
    /// adds nothing to peak RSS: the memory was in use already. A schema
    /// without those CHECK lists would make this unnecessary.
    ///
    /// Setting the trim threshold also stops glibc from raising its mmap
    /// threshold as blocks are freed (it does so only while both are left
    /// to it), so every block of 128 KiB or more, an import's batch of rows
    /// among them, was mapped afresh and its pages faulted in again: 200,000
    /// page faults importing 1M fetches. The mmap threshold is set to
    /// glibc's own dynamic ceiling, 32 MiB: 127,000 faults, a quarter less
    /// system time (1.26 s to 1.00 s), 17 MiB more at the peak (342 to 359).
    ///
    /// `mallopt` is not in Swift's Glibc module, so it is looked up by name.
    /// Other C libraries keep their own policy: this does nothing there.
    static func keepForReuse() {
        #if canImport(Glibc)
        typealias SetMallocOption = @convention(c) (Int32, Int32) -> Int32
        let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: SetMallocOption.self)
        _ = mallopt(trimThreshold, 64 << 20)
        _ = mallopt(mmapThreshold, 32 << 20)
        #endif
    }
}
