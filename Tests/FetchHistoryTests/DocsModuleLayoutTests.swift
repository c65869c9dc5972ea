import Foundation
import Testing

/// CONTRIBUTING.md's picture of the modules is the sources' imports: each
/// line `MODULE ─► A, B` of the block after `<!-- module-imports … -->` names
/// exactly the package's modules that MODULE's files import, and every
/// module in `Sources/` has its line. Outside packages (after `+`) are left
/// to the reader.
@Suite struct DocsModuleLayoutTests {
    /// The picture's arrows: each module and what it imports of the package.
    static func picture() throws -> [String: Set<String>] {
        let lines = Docs.lines(of: try Docs.text("CONTRIBUTING.md"))
        let marker = try #require(lines.firstIndex { $0.text.hasPrefix("<!-- module-imports") }, "CONTRIBUTING.md has no module-imports block")
        var arrows: [String: Set<String>] = [:]
        for line in lines[(marker + 2)...] {
            guard line.inCode, !line.text.hasPrefix("```") else { break }
            let sides = line.text.split(separator: "─►", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(sides.count == 2, "not an arrow: \(line.text)")
            let imported = sides[1].split(separator: "+", maxSplits: 1).first.map(String.init) ?? ""
            arrows[sides[0]] = Set(imported.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return arrows
    }

    /// `import X` at the start of a line, after attributes (`@_exported`,
    /// `@_spi(Bytes)`) and an access level (`package import X`).
    nonisolated(unsafe) static let importLine =
        /^[ \t]*(?:@\w+(?:\([^)]*\))?[ \t]+)*(?:(?:public|package|internal|fileprivate|private)[ \t]+)?import[ \t]+(\w+)/
        .anchorsMatchLineEndings()

    /// Each module of `Sources/` and what its files import of the package
    /// (the modules of `Sources/`, and `CSQLite`).
    static func imports() throws -> [String: Set<String>] {
        let sources = Docs.root.appending(path: "Sources")
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !$0.hasPrefix(".") }
        let known = Set(modules + ["CSQLite"])
        var imports: [String: Set<String>] = [:]
        for module in modules {
            var found: Set<String> = []
            let files = FileManager.default.enumerator(atPath: sources.appending(path: module).path)?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let text = try String(contentsOf: sources.appending(path: module).appending(path: file), encoding: .utf8)
                for match in text.matches(of: Self.importLine) {
                    let name = String(match.output.1)
                    if known.contains(name), name != module { found.insert(name) }
                }
            }
            imports[module] = found
        }
        return imports
    }

    @Test func thePictureDrawsEachModuleWithWhatItImports() throws {
        // Given the picture and the sources
        let picture = try Self.picture()
        let imports = try Self.imports()

        // Then they name the same modules, and each arrow is an import, each import an arrow
        #expect(Set(picture.keys) == Set(imports.keys), "modules drawn but not in Sources/, or in Sources/ but not drawn")
        for (module, imported) in imports.sorted(by: { $0.key < $1.key }) {
            #expect(picture[module] == imported, "\(module) imports \(imported.sorted()); CONTRIBUTING.md draws \(picture[module]?.sorted() ?? [])")
        }
        #expect(imports["FetchHistoryStore"]?.contains("CSQLite") == true, "the import lines were not read")
    }
}
