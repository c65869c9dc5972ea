import FetchHistoryTesting
import Foundation
import Synchronization
import Testing

extension ReliabilityTests {
    @Suite("Malformed imports are refused whole, with the position of the problem")
    struct MalformedImports {
        /// A malformed file, and the line its problem is on (nil: anywhere).
        struct Case: Sendable {
            var name: String
            var bytes: Data
            var line: Int?
        }

        static func line(_ number: Int, value: Int = 7) -> String {
            ExportRecord.make("succeeded", id: Ids.fetch(9000 + number), at: Fixtures.day0 + Int64(number) * 1000, value: value).jsonLine
        }

        /// Line 1 is a good record; the problem is in what follows.
        static func afterAGoodLine(_ name: String, _ second: String, line: Int? = 2, newline: Bool = true) -> Case {
            Case(name: name, bytes: Data((Self.line(1) + "\n" + second + (newline ? "\n" : "")).utf8), line: line)
        }

        static func afterAGoodLine(_ name: String, bytes second: [UInt8], line: Int? = 2) -> Case {
            Case(name: name, bytes: Data((Self.line(1) + "\n").utf8) + Data(second) + Data("\n".utf8), line: line)
        }

        /// The second record with `key`'s value (as JSON text) replaced.
        static func replacing(_ key: String, with json: String) -> String {
            let record = line(2)
            guard let keyRange = record.range(of: "\"\(key)\":") else { return record }
            let rest = record[keyRange.upperBound...]
            var depth = 0, inString = false, escaped = false
            var end = rest.startIndex
            for index in rest.indices {
                let character = rest[index]
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                } else if character == "\"" { inString = true } else if character == "{" || character == "[" { depth += 1 }
                else if character == "}" || character == "]" {
                    if depth == 0 { end = index; break }
                    depth -= 1
                } else if character == ",", depth == 0 { end = index; break }
            }
            return String(record[..<keyRange.upperBound]) + json + String(rest[end...])
        }

        static func removing(_ key: String) -> String {
            replacing(key, with: "").replacingOccurrences(of: "\"\(key)\":,", with: "")
        }

        static var cases: [Case] {
            let good2 = line(2)
            let bytes2 = Array(good2.utf8)
            func invalidUTF8(_ inserted: [UInt8]) -> [UInt8] {
                // Inside the source string: "random" becomes "ran<bytes>dom"
                let marker = Array("\"source\":\"ran".utf8)
                let at = bytes2.firstRange(of: marker)!.upperBound
                return Array(bytes2[..<at]) + inserted + Array(bytes2[at...])
            }
            return [
                afterAGoodLine("truncated inside a string", String(good2.prefix(60)), newline: false),
                afterAGoodLine("truncated after a key", String(good2.prefix(good2.range(of: "\"session\":")!.upperBound.utf16Offset(in: good2))), newline: false),
                Case(name: "a JSON array never closed", bytes: Data(("[\n" + line(1) + ",\n" + line(2) + "\n").utf8), line: nil),
                Case(name: "text after the closing bracket", bytes: Data(("[\n" + line(1) + "\n] ]\n").utf8), line: 3),
                afterAGoodLine("value missing from a succeeded fetch", removing("value")),
                afterAGoodLine("id as a number", replacing("id", with: "12345")),
                afterAGoodLine("startedAt as a number", replacing("startedAt", with: "1763805600000")),
                afterAGoodLine("a record that is an array", "[" + good2 + "]"),
                Case(name: "a bare number", bytes: Data("42\n".utf8), line: 1),
                afterAGoodLine("source missing", removing("source")),
                afterAGoodLine("id missing", removing("id")),
                Case(name: "a duplicate id in the file", bytes: Data((line(1) + "\n" + line(2) + "\n" + line(1, value: 8) + "\n").utf8), line: 3),
                afterAGoodLine("an object value with a bracket for a brace", replacing("value", with: "{\"id\":1]")),
                afterAGoodLine("an array value with a trailing comma", replacing("value", with: "[1,2,]")),
                afterAGoodLine("durationMs 1e400", replacing("durationMs", with: "1e400")),
                afterAGoodLine("a 400-digit number", replacing("durationMs", with: String(repeating: "9", count: 400))),
                afterAGoodLine("NaN", replacing("value", with: "NaN")),
                afterAGoodLine("10000 [ in a field", replacing("error", with: String(repeating: "[", count: 10_000))),
                Case(name: "10000 [ alone", bytes: Data(String(repeating: "[", count: 10_000).utf8), line: 1),
                Case(name: "10000 nested objects", bytes: Data((String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8), line: 1),
                afterAGoodLine("invalid UTF-8: 0xFF", bytes: invalidUTF8([0xFF])),
                afterAGoodLine("invalid UTF-8: overlong /", bytes: invalidUTF8([0xC0, 0xAF])),
                afterAGoodLine("invalid UTF-8: a UTF-16 surrogate", bytes: invalidUTF8([0xED, 0xA0, 0x80])),
                afterAGoodLine("invalid UTF-8: a cut sequence", bytes: invalidUTF8([0xE2, 0x82])),
                afterAGoodLine("invalid UTF-8 outside strings", bytes: [0xFF] + bytes2),
                afterAGoodLine("a raw NUL outside strings", bytes: [0x00] + bytes2),
                afterAGoodLine("a trailing comma", String(good2.dropLast()) + ",}"),
                afterAGoodLine("single quotes", good2.replacingOccurrences(of: "\"source\":\"random\"", with: "'source':'random'")),
                afterAGoodLine("an unknown outcome", replacing("outcome", with: "\"exploded\"")),
                afterAGoodLine("an id that is not a UUID", replacing("id", with: "\"' OR 1=1 --\"")),
                afterAGoodLine("two records on one line", good2 + " " + line(3)),
            ]
        }

        @Test func eachMalformedFileIsRefusedWholeWithItsPosition() async throws {
            // Given the standard history
            let sandbox = try Sandbox()
            try await sandbox.importRecords(Fixtures.standard)
            let before = FileSnapshot(sandbox.database)
            let cases = Self.cases

            // When each malformed file is imported
            let results = try await boundedMap(Array(cases.enumerated()), width: 2) { index, item in
                let file = sandbox.path("malformed-\(index).jsonl")
                try item.bytes.write(to: URL(fileURLWithPath: file))
                return (item, file, try await sandbox.run("import", file))
            }

            // Then each exits 1 with one line naming the file, the line and column, and nothing is imported
            var positioned = 0
            for (item, file, result) in results {
                let message = result.standardError
                let context = "\(item.name): \(result)"
                let linePart = item.line.map { "line \($0), column " } ?? "line "
                if result.status == 1 && message.contains(linePart) { positioned += 1 }
                #expect(result.status == 1 && !result.wasSignalled, "\(context)")
                #expect(message.hasPrefix("error: \(file): ") && message.split(separator: "\n").count == 1, "\(context)")
                #expect(message.contains(linePart) && message.contains("column"), "\(context)")
                #expect(message.hasSuffix("nothing was imported\n"), "\(context)")
                #expect(result.standardOutput.isEmpty, "\(context)")
            }
            let after = FileSnapshot(sandbox.database)
            #expect(after.bytes == before.bytes, "the database changed: \(before) → \(after)")
            #expect(after.companionsWithData.isEmpty, "\(after)")
            let count = try await SQLiteProbe.integer(sandbox.database, "SELECT count(*) FROM fetch")
            #expect(count == Int64(Fixtures.standard.count))
            Reliability.summary(
                "malformed imports: \(results.count) files (truncated, wrong types, missing fields, duplicate ids, 1e400, 20-digit and 400-digit numbers, "
                    + "10000-deep nesting, invalid UTF-8, …): \(positioned) refused with the right line and column, 0 records imported, database unchanged"
            )
        }

        /// `import <(ssh laptop fetch-history export)` hands the command a
        /// pipe, not a file: it must read it (or, failing, say why truly).
        @Test func importReadsANamedPipeLikeAFile() async throws {
            let sandbox = try Sandbox()
            let fifo = sandbox.path("export.pipe")
            try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
            let records = Array(Fixtures.standard.prefix(3))
            let stop = StopFlag()
            let feeder = Self.feed(ExportRecord.jsonl(records), into: fifo, unless: stop)

            let result = try await sandbox.run("import", fifo)
            stop.value.withLock { $0 = true }
            // Wakes a feeder still waiting for a reader (an import that never opened the pipe).
            let release = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            let fed = await feeder.value
            if release >= 0 { close(release) }
            let rows = FileManager.default.fileExists(atPath: sandbox.database)
                ? try await SQLiteProbe.integer(sandbox.database, "SELECT count(*) FROM fetch") : 0
            #expect(result.status == 0 && result.standardOutput.contains("3 added"), "\(result)")
            #expect(rows == 3)
            #expect(!result.wasSignalled && [0, 1].contains(result.status), "\(result)")
            Reliability.summary(
                "import from a named pipe: exit \(result.status), \(rows) rows imported, the writer \(fed); "
                    + "message: \(result.standardError.trimmingCharacters(in: .newlines).debugDescription)"
            )
        }

        /// Writes `data` into the FIFO at `path` on a thread of its own, once
        /// a reader opens it (blocked in `open` until then, using no CPU),
        /// and says how far it got. Opened by the test after `stop` instead,
        /// it writes nothing.
        static func feed(_ data: Data, into path: String, unless stop: StopFlag) -> Task<String, Never> {
            Task {
                await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                    Thread {
                        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                        guard descriptor >= 0 else {
                            return continuation.resume(returning: "could not open the pipe (\(String(cString: strerror(errno))))")
                        }
                        defer { close(descriptor) }
                        guard !stop.value.withLock({ $0 }) else { return continuation.resume(returning: "found no reader") }
                        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                        continuation.resume(returning: written == data.count ? "wrote all \(data.count) bytes" : "could not write (\(String(cString: strerror(errno))))")
                    }.start()
                }
            }
        }

        final class StopFlag: Sendable {
            let value = Mutex(false)
        }

        /// Mutations of a valid export, imported into a copy of a database
        /// that holds some of its fetches: never a crash; a refusal changes
        /// nothing; an acceptance adds exactly the rows it says.
        @Test func fuzzedExportsNeverCrashAndAreAllOrNothing() async throws {
            let variants = Reliability.setting("RELIABILITY_FUZZ", default: 300)
            var random = Reliability.random(for: "import fuzz")
            let sandbox = try Sandbox()

            // Given a valid export of a history with recorded and imported fetches, in both formats
            try await sandbox.importRecords(Fixtures.standard)
            try await sandbox.succeed("fetch", "--count", "3", "--latency", "0", "--interval", "0", "--timeout", "1h")
            let jsonl = try await sandbox.run("export", "--format", "jsonl").standardOutputData
            let json = try await sandbox.run("export", "--format", "json").standardOutputData
            // and a database holding its first half
            let base = sandbox.path("base.sqlite")
            let half = Data(completeLines(jsonl).prefix(6).map { $0 + "\n" }.joined().utf8)
            try half.write(to: URL(fileURLWithPath: sandbox.path("half.jsonl")))
            try await sandbox.succeed("import", sandbox.path("half.jsonl"), "--database", base)
            let baseBytes = try #require(FileManager.default.contents(atPath: base))
            try #require(FileSnapshot(base).companions.isEmpty)
            let baseRows = try await SQLiteProbe.integer(base, "SELECT count(*) FROM fetch")
            let baseExport = try await sandbox.run("export", "--format", "jsonl", "--database", base).standardOutputData

            // When each mutated export is imported into a fresh copy of that database
            var plans: [(index: Int, bytes: Data, mutations: [String])] = []
            for index in 0..<variants {
                var bytes = index.isMultiple(of: 2) ? jsonl : json
                var mutations: [String] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) { mutations.append(Self.mutate(&bytes, using: &random)) }
                plans.append((index, bytes, mutations))
            }
            let outcomes = try await boundedMap(plans, width: 2) { plan -> FuzzOutcome in
                let database = sandbox.path("fuzz-\(plan.index).sqlite")
                let file = sandbox.path("fuzz-\(plan.index).json")
                try baseBytes.write(to: URL(fileURLWithPath: database))
                try plan.bytes.write(to: URL(fileURLWithPath: file))
                defer {
                    for path in [file, database, database + "-wal", database + "-shm"] { try? FileManager.default.removeItem(atPath: path) }
                }
                let result = try await sandbox.run("import", file, "--database", database)
                var outcome = FuzzOutcome(index: plan.index, mutations: plan.mutations, result: result)
                if result.status == 0, !result.wasSignalled {
                    outcome.rowsGained = try await SQLiteProbe.integer(database, "SELECT count(*) FROM fetch") - baseRows
                    outcome.integrity = await SQLiteProbe.integrityCheck(database)
                } else {
                    outcome.fileUnchanged = FileManager.default.contents(atPath: database) == baseBytes
                        && FileSnapshot(database).companionsWithData.isEmpty
                    if !outcome.fileUnchanged {
                        let export = try await sandbox.run("export", "--format", "jsonl", "--database", database)
                        outcome.exportUnchanged = export.status == 0 && export.standardOutputData == baseExport
                    }
                }
                if plan.index < 3 || !outcome.passed {
                    try? plan.bytes.write(to: URL(fileURLWithPath: sandbox.path("kept-fuzz-\(plan.index).json")))
                }
                return outcome
            }

            // Then no import crashed; refusals changed nothing; acceptances added what they said
            var accepted = 0, refused = 0, added = 0, signalled = 0, byteIdentical = 0
            for outcome in outcomes {
                let context = "variant \(outcome.index) (seed \(Reliability.seed)), \(outcome.mutations.joined(separator: ", ")): \(outcome.result)"
                if outcome.result.wasSignalled { signalled += 1 }
                #expect(!outcome.result.wasSignalled && [0, 1].contains(outcome.result.status), "\(context)")
                if outcome.result.status == 0 {
                    accepted += 1
                    let summary = Self.summaryCounts(outcome.result.standardOutput)
                    #expect(summary != nil, "\(context)")
                    #expect(summary?.added == outcome.rowsGained.map(Int.init), "\(context): \(outcome.rowsGained ?? -1) rows gained")
                    #expect(outcome.integrity == "ok", "\(context)")
                    added += summary?.added ?? 0
                } else if outcome.result.status == 1 {
                    refused += 1
                    if outcome.fileUnchanged { byteIdentical += 1 }
                    #expect(outcome.fileUnchanged || outcome.exportUnchanged, "\(context): a refused import changed the history")
                    #expect(outcome.result.standardError.hasPrefix("error: ") && outcome.result.standardError.contains("nothing was imported"), "\(context)")
                }
            }
            Reliability.summary(
                "import fuzz: \(outcomes.count) mutated exports (seed \(Reliability.seed)): \(accepted) accepted adding \(added) rows as reported, "
                    + "\(refused) refused with nothing changed (\(byteIdentical) byte for byte, the rest by export), \(signalled) crashes"
            )
        }

        struct FuzzOutcome: Sendable {
            var index: Int
            var mutations: [String]
            var result: CLIResult
            var rowsGained: Int64?
            var integrity: String?
            var fileUnchanged = false
            var exportUnchanged = false

            var passed: Bool {
                guard !result.wasSignalled else { return false }
                if result.status == 0 { return integrity == "ok" && Self.added(result).map(Int64.init) == rowsGained }
                return result.status == 1 && (fileUnchanged || exportUnchanged)
            }

            static func added(_ result: CLIResult) -> Int? { MalformedImports.summaryCounts(result.standardOutput)?.added }
        }

        /// `imported N fetches: A added, S already present`, or `nothing to
        /// import: …` when none was added (`all S fetches are already present`).
        static func summaryCounts(_ text: String) -> (added: Int, skipped: Int)? {
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == ":" })
            if text.hasPrefix("nothing to import: ") {
                return (0, words.compactMap { Int($0) }.first ?? 0)
            }
            guard let addedAt = words.firstIndex(of: "added"), addedAt > 0, let presentAt = words.firstIndex(of: "already"), presentAt > 0,
                  let added = Int(words[addedAt - 1]), let skipped = Int(words[presentAt - 1]),
                  let total = words.firstIndex(of: "imported").flatMap({ Int(words[$0 + 1]) }), total == added + skipped
            else { return nil }
            return (added, skipped)
        }

        /// Bytes that make JSON interesting when they land somewhere unexpected.
        static let alphabet = Array("{}[]\":,0123456789-+.eE\\ntfu ".utf8) + [0x00, 0x0A, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]

        /// One random change to `bytes`, described.
        static func mutate(_ bytes: inout Data, using random: inout SplitMix64) -> String {
            guard !bytes.isEmpty else {
                bytes.append(alphabet.randomElement(using: &random)!)
                return "insert into empty"
            }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                let value = UInt8.random(in: 0...255, using: &random)
                bytes[bytes.startIndex + at] = value
                return "byte \(at) = \(value)"
            case 1:
                let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
                bytes[bytes.startIndex + at] ^= bit
                return "flip bit \(bit) of byte \(at)"
            case 2:
                bytes = bytes.prefix(at)
                return "truncate at \(at)"
            case 3:
                let inserted = (0..<Int.random(in: 1...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                bytes.insert(contentsOf: inserted, at: bytes.startIndex + at)
                return "insert \(inserted) at \(at)"
            case 4:
                let length = min(Int.random(in: 1...40, using: &random), bytes.count - at)
                bytes.removeSubrange(bytes.startIndex + at..<bytes.startIndex + at + length)
                return "delete \(length) at \(at)"
            case 5:
                let length = min(Int.random(in: 1...400, using: &random), bytes.count - at)
                let span = bytes[bytes.startIndex + at..<bytes.startIndex + at + length]
                let to = Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: Array(span), at: bytes.startIndex + to)
                return "copy \(length) from \(at) to \(to)"
            case 6:
                // A hex digit of an id: the record may stay valid with a new id.
                let hex = Array("0123456789abcdef".utf8)
                let quote = bytes[(bytes.startIndex + at)...].firstRange(of: Data("\"id\":\"".utf8))
                guard let quote, quote.upperBound + 3 < bytes.endIndex else { return "no id after \(at)" }
                bytes[quote.upperBound + 2] = hex.randomElement(using: &random)!
                return "id digit at \(quote.upperBound + 2 - bytes.startIndex)"
            default:
                // Swap two lines (records).
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                guard lines.count > 2 else { return "no lines to swap" }
                let first = Int.random(in: 0..<lines.count, using: &random), second = Int.random(in: 0..<lines.count, using: &random)
                lines.swapAt(first, second)
                bytes = Data(lines.joined(separator: [0x0A]))
                return "swap lines \(first) and \(second)"
            }
        }
    }
}
