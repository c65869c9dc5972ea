import Glibc

/// A file, standard input or a pipe, read with `read(2)`.
final class FileDescriptorSource: ByteSource {
    private let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputReadError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw InputReadError(code: errno) }
        }
    }
}
