import Foundation
import Testing

extension ReliabilityTests {
    @Suite("A full disk fails the write clearly and loses nothing committed")
    struct DiskFull {
        @Test func fetchingUntilTheDiskIsFullFailsClearlyAndKeepsWhatWasCommitted() async throws {
            let sandbox = try Sandbox()
            let size = "512k"
            try await withTmpfs(in: sandbox, size: size) { folder in
                let path = folder + "/history.sqlite"

                // When fetches are recorded until SQLite cannot write any more
                let filling = try await sandbox.run(
                    "fetch", "--count", "100000", "--latency", "0", "--interval", "0", "--format", "jsonl", "--database", path
                )

                // Then the fetch that could not be recorded fails clearly: exit 1, no crash, one line about the full disk
                #expect(filling.status == 1 && !filling.wasSignalled, "\(filling)")
                #expect(Self.isClearDiskFullMessage(filling.standardError, path: path), "\(filling)")
                let printed = completeLines(filling.standardOutputData)
                #expect(printed.count > 0 && printed.count < 100_000, "\(printed.count) fetches fitted")

                // and every fetch printed (so committed) is there as printed; at most the one in flight more, interrupted
                let integrity = await SQLiteProbe.integrityCheck(path)
                #expect(integrity == "ok")
                let export = try await sandbox.run("export", "--format", "jsonl", "--database", path)
                #expect(export.status == 0, "\(export)")
                let recorded = Set(export.lines)
                let lost = printed.filter { !recorded.contains($0) }
                #expect(lost.isEmpty, "printed but not recorded: \(lost)")
                let extra = recorded.subtracting(printed)
                #expect(extra.count <= 1 && extra.allSatisfy { jsonField("outcome", in: $0) == "interrupted" }, "\(extra)")

                // and, with the disk kept full (closing the last connection
                // checkpoints and truncates the WAL, which frees some space
                // again), later writes fail the same way, leaving the history as it was
                try Self.fillUp(folder)
                let again = try await sandbox.run("fetch", "--latency", "0", "--database", path)
                #expect(again.status == 1 && !again.wasSignalled, "\(again)")
                #expect(Self.isClearDiskFullMessage(again.standardError, path: path), "\(again)")
                let records = sandbox.path("more.jsonl")
                try ExportRecord.jsonl(Fixtures.succeeded(5_000)).write(to: URL(fileURLWithPath: records))
                let importing = try await sandbox.run("import", records, "--database", path)
                #expect(importing.status == 1 && !importing.wasSignalled, "\(importing)")
                #expect(Self.isClearDiskFullMessage(importing.standardError, path: path), "\(importing)")
                let after = try await sandbox.run("export", "--format", "jsonl", "--database", path)
                let afterAgain = Set(after.lines)
                #expect(after.status == 0, "\(after)")
                let gained = afterAgain.subtracting(recorded)
                #expect(recorded.isSubset(of: afterAgain), "a write that failed lost earlier fetches")
                #expect(gained.allSatisfy { jsonField("outcome", in: $0) == "interrupted" } && gained.count <= 1,
                        "the failed fetch or import left: \(gained)")
                let integrityAfter = await SQLiteProbe.integrityCheck(path)
                #expect(integrityAfter == "ok")

                // and an export onto the full disk fails clearly and leaves no half-written file (filled
                // again first: the last connection to close deletes the WAL, which frees its space)
                try Self.fillUp(folder)
                let listingBefore = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                let exporting = try await sandbox.run("export", "--output", folder + "/history.json", "--database", path)
                #expect(exporting.status == 1 && !exporting.wasSignalled, "\(exporting)")
                #expect(exporting.standardError.hasPrefix("error: ") && exporting.standardError.contains("No space left"), "\(exporting)")
                let listingAfter = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                #expect(listingAfter.subtracting(listingBefore).isEmpty, "the failed export left \(listingAfter.subtracting(listingBefore))")

                Reliability.summary(
                    "disk full: \(size) tmpfs held \(printed.count) fetches; the next write failed with exit \(filling.status) "
                        + "(\"\(filling.standardError.trimmingCharacters(in: .newlines))\"), \(lost.count) committed fetches lost, "
                        + "\(extra.count) in flight → interrupted, later fetch, import and export --output refused (exit \(again.status), \(importing.status), \(exporting.status); no half file), "
                        + "no signal exits, integrity \(integrity)/\(integrityAfter)"
                )
            }
        }

        /// Writes zeros into `folder` until the file system has no space left.
        static func fillUp(_ folder: String) throws {
            let descriptor = open(folder + "/filler", O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard descriptor >= 0 else { throw SandboxError("cannot create the filler file") }
            defer { close(descriptor) }
            let chunk = [UInt8](repeating: 0, count: 4096)
            while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            var small: UInt8 = 0
            while write(descriptor, &small, 1) > 0 {}
        }

        static func isClearDiskFullMessage(_ message: String, path: String) -> Bool {
            let lines = message.split(separator: "\n")
            return lines.count == 1 && message.hasPrefix("error: ") && message.contains(path) && message.lowercased().contains("full")
        }

        /// Runs `body` with a folder on a tmpfs of `size`, unmounted after
        /// (even when `body` throws). Without the right to mount, says why and
        /// returns without running `body`.
        func withTmpfs(in sandbox: Sandbox, size: String, _ body: (String) async throws -> Void) async throws {
            let folder = sandbox.path("tmpfs")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let mount = try await ExternalCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", folder])
            guard mount.succeeded else {
                Reliability.summary("disk full: SKIPPED, cannot mount a tmpfs here: \(mount.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
                return
            }
            do {
                try await body(folder)
            } catch {
                _ = try? await unmount(folder)
                throw error
            }
            try await unmount(folder)
        }

        private func unmount(_ folder: String) async throws {
            var result = try await ExternalCommand.run("/bin/umount", [folder])
            if !result.succeeded {
                // A child still holding a file would keep it busy: detach it anyway.
                result = try await ExternalCommand.run("/bin/umount", ["-l", folder])
            }
            #expect(result.succeeded, "\(result)")
        }
    }
}
