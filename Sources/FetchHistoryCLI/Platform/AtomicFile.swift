import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written under a temporary name in the same folder and renamed
/// over `path` only when complete.
struct AtomicFile {
    let path: String
    let temporaryPath: String
    let descriptor: Int32

    /// - Parameter mode: the permissions the file gets; an ordinary file's (0666 less the umask) when nil.
    init(path: String, mode: mode_t? = nil) throws {
        self.path = path
        let (folder, name) = path.folderAndName
        var template = Array(((folder.isEmpty ? "." : folder) + "/.\(name).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw OutputError.cannotWrite(target: path, SystemError.ofLastCall)
        }
        // mkstemp makes the file 0600; an export is an ordinary file, or keeps the mode of the one it replaces.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, mode ?? 0o666 & ~mask)
        self.descriptor = descriptor
        self.temporaryPath = String(cString: template.map { $0 })
    }

    func commit() throws {
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            let failure = SystemError.ofLastCall
            unlink(temporaryPath)
            throw OutputError.cannotWrite(target: path, failure)
        }
    }

    func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }
}

extension AtomicFile {
    /// Runs `write` on standard output when `path` is nil or `-`, else on
    /// the file at `path`, written under a temporary name and renamed when
    /// `write` returns: a failure leaves no half-written file there.
    ///
    /// Only a regular file (or none yet) is replaced that way, and through a
    /// symbolic link the file it names, keeping the link and the file's
    /// permissions. Anything else — `/dev/stdout`, `/dev/null`, a named pipe,
    /// a shell's `>(gzip)` — is opened and written as it is: renaming over it
    /// would put a file where the device or pipe was. The history being read
    /// (`history`, its file's path) is never written over.
    @MainActor static func write(to path: String?, sparing history: String?, _ write: (OutputStream) async throws -> Void) async throws {
        guard let path, path != "-" else { return try await write(.standardOutput()) }
        var target = stat(), held = stat()
        let exists = stat(path, &target) == 0
        if exists, let history, stat(history, &held) == 0, held.st_dev == target.st_dev, held.st_ino == target.st_ino {
            throw OutputError.isTheHistory(target: path)
        }
        if exists, target.st_mode & S_IFMT != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw OutputError.cannotWrite(target: path, SystemError.ofLastCall) }
            defer { close(descriptor) }
            return try await write(OutputStream(descriptor: descriptor, name: path))
        }
        // Through a symbolic link, the file it names is replaced; the link stays.
        var named = path
        if exists, let resolved = realpath(path, nil) {
            named = String(cString: resolved)
            free(resolved)
        }
        let file = try AtomicFile(path: named, mode: exists ? target.st_mode & 0o7777 : nil)
        do {
            try await write(OutputStream(descriptor: file.descriptor, name: path))
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }
}
