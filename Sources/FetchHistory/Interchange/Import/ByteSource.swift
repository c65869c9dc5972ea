/// Where the bytes of an import come from.
protocol ByteSource: AnyObject {
    /// Fills the start of `buffer`; returns how many bytes it wrote, 0 at
    /// the end of the input.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int
}
