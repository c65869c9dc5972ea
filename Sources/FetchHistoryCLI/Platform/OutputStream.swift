import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The reader of our output went away (`export | head`): stop quietly.
struct OutputClosed: Error {}

/// Output that could not be written, other than to a reader that left.
enum OutputError: Error {
    /// Writing to `target` (a file's path, or "standard output") failed.
    case cannotWrite(target: String, SystemError)
    /// `target` is the history being read: writing there would destroy it.
    case isTheHistory(target: String)
}

/// Buffered writes to a file descriptor, so millions of rows are written in
/// large blocks rather than one system call each.
final class OutputStream {
    private let descriptor: Int32
    /// What the output is, for messages: a file's path or "standard output".
    private let name: String
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(capacity)
    }

    static func standardOutput() -> OutputStream { OutputStream(descriptor: STDOUT_FILENO, name: "standard output") }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends bytes through `body` (which writes into the buffer directly).
    func write(_ body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes `bytes` out after what is buffered, and empties them. Swapped
    /// in rather than copied when nothing is buffered.
    func write(emptying bytes: inout [UInt8]) throws {
        if buffer.isEmpty {
            swap(&buffer, &bytes)
        } else {
            buffer.append(contentsOf: bytes)
            bytes.removeAll(keepingCapacity: true)
        }
        try flush()
    }

    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            // The C boundary: write(2) is handed what is left of the buffer.
            let written = buffer[offset...].withUnsafeBytes { writeDescriptor(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { buffer.removeAll(); throw OutputClosed() }
                let failure = SystemError.ofLastCall
                buffer.removeAll()
                throw OutputError.cannotWrite(target: name, failure)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Messages for the user, unbuffered, on standard error.
enum StandardError {
    static func write(_ text: String) {
        let stream = OutputStream(descriptor: STDERR_FILENO, name: "standard error")
        try? stream.write(text)
        try? stream.flush()
    }

    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// `write(2)`, named apart from `OutputStream.write`, which calls it.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
