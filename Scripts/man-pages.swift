// Writes one man page per command into the folder named by the first
// argument: fetch-history.1, fetch-history-list.1, fetch-history-show.1, …
// (`man fetch-history-list`, or `man fetch-history list` with man-db), from
// what argument-parser says of the commands (`--experimental-dump-help`, a
// JSON description read on standard input): the help, as mdoc(7).
//
//     fetch-history --experimental-dump-help | swift Scripts/man-pages.swift DIR
//
// Scripts/install.sh runs it; the Swift toolchain runs it as a script, with
// nothing to build. docs/install.md, "Install", says why argument-parser's own
// generate-manual plugin is not used.

import Foundation

/// The part of argument-parser's description (its `ToolInfoV0`) a page shows.
struct ToolInfo: Decodable {
    var serializationVersion: Int
    var command: CommandInfo
}

struct CommandInfo: Decodable {
    var commandName: String
    var superCommands: [String]?
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    var subcommands: [CommandInfo]?
    var arguments: [ArgumentInfo]?

    /// `fetch-history list`, as typed.
    var fullName: String { ((superCommands ?? []) + [commandName]).joined(separator: " ") }
    /// `fetch-history-list`: the page's name, as git names its commands' pages.
    var pageName: String { ((superCommands ?? []) + [commandName]).joined(separator: "-") }
    /// The commands that get a page of their own: argument-parser's `help` is not one.
    var documentedSubcommands: [CommandInfo] {
        (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
    }
}

struct ArgumentInfo: Decodable {
    enum Kind: String, Decodable { case positional, option, flag }
    struct Name: Decodable {
        var kind: String
        var name: String
        /// `-d` or `--database` as the mdoc `Fl` macro takes it (it adds one dash).
        var flag: String { kind == "long" ? "-" + name : name }
    }

    var kind: Kind
    var names: [Name]?
    var preferredName: Name?
    var valueName: String?
    var isOptional: Bool
    var isRepeating: Bool
    var defaultValue: String?
    var allValues: [String]?
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool
}

/// One page, in mdoc: the macros that man-db's groff and mandoc both read.
struct Page {
    var lines: [String] = []

    mutating func macro(_ name: String, _ arguments: String...) {
        lines.append("." + ([name] + arguments).joined(separator: " "))
    }

    /// Text from a help: blank lines make paragraphs, indented lines (the
    /// examples) stay as they are, in a display; the rest is filled by man.
    mutating func text(_ text: String) {
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.hasPrefix("  ")
            if indented != literal {
                lines.append(indented ? ".Bd -literal -offset 2n" : ".Ed")
                literal = indented
            }
            if line.allSatisfy(\.isWhitespace) {
                if !literal { lines.append(".Pp") }
            } else {
                lines.append(Self.textLine(String(indented ? line.dropFirst(2) : line[...])))
            }
        }
        if literal { lines.append(".Ed") }
    }

    /// A line of text as roff reads it literally: a backslash is `\e`, and a
    /// line must not start like a request (mdoc(7), "ESCAPE SEQUENCES").
    static func textLine(_ line: String) -> String {
        let escaped = line.replacingOccurrences(of: "\\", with: "\\e")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// A macro's argument: quoted when it has blanks, its quotes written `\(dq`.
    static func argument(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "\"", with: "\\(dq")
        return escaped.contains(" ") || escaped.isEmpty ? "\"" + escaped + "\"" : escaped
    }
}

func page(for command: CommandInfo, root: CommandInfo, date: String) -> String {
    var page = Page()
    let arguments = (command.arguments ?? []).filter(\.shouldDisplay)
    page.lines.append(#".\" Written by Scripts/man-pages.swift from the commands' help."#)
    page.macro("Dd", date)
    page.macro("Dt", command.pageName.uppercased(), "1")
    page.macro("Os")
    // Paths, URLs and option names are not to be split by hyphenation:
    // groff's mdoc turns it back on at each section from this register.
    page.macro("nr", "doc-hyphen-flags", "0")
    page.macro("nh")

    page.macro("Sh", "NAME")
    page.macro("Nm", command.pageName)
    page.macro("Nd", Page.argument(command.abstract ?? ""))

    page.macro("Sh", "SYNOPSIS")
    page.macro("Nm", command.superCommands?.first ?? command.commandName)
    if command.superCommands != nil { page.macro("Cm", Page.argument(command.commandName)) }
    for argument in arguments {
        let value = argument.valueName.map { ["Ar", Page.argument($0)] } ?? []
        let repeated = argument.isRepeating ? ["..."] : []
        let words: [String]
        switch argument.kind {
        case .positional: words = value + repeated
        case .option: words = ["Fl", (argument.preferredName ?? argument.names?.first)?.flag ?? ""] + value + repeated
        case .flag: words = ["Fl", (argument.preferredName ?? argument.names?.first)?.flag ?? ""]
        }
        if argument.isOptional { page.macro("Op", words.joined(separator: " ")) } else { page.macro(words[0], words.dropFirst().joined(separator: " ")) }
    }
    if !command.documentedSubcommands.isEmpty { page.macro("Ar", "command") }

    page.macro("Sh", "DESCRIPTION")
    page.text(command.abstract ?? "")
    if let discussion = command.discussion, !discussion.isEmpty {
        page.macro("Pp")
        page.text(discussion)
    }

    if !command.documentedSubcommands.isEmpty {
        page.macro("Sh", "COMMANDS")
        page.macro("Bl", "-tag", "-width", "Ds")
        for subcommand in command.documentedSubcommands {
            page.macro("It", "Cm", Page.argument(subcommand.commandName))
            page.text(subcommand.abstract ?? "")
            page.lines.append("See " + "\\fB" + subcommand.pageName + "\\fR(1).")
        }
        page.macro("El")
    }

    if !arguments.isEmpty {
        page.macro("Sh", "OPTIONS")
        page.macro("Bl", "-tag", "-width", "Ds")
        for argument in arguments {
            let value = argument.valueName.map { " Ar " + Page.argument($0) } ?? ""
            switch argument.kind {
            case .positional:
                page.macro("It", "Ar", Page.argument(argument.valueName ?? ""))
            case .option, .flag:
                let flags = (argument.names ?? []).map { "Fl " + $0.flag }.joined(separator: " , ")
                page.macro("It", flags + (argument.kind == .option ? value : ""))
            }
            page.text(argument.abstract ?? "")
            if let discussion = argument.discussion, !discussion.isEmpty { page.text(discussion) }
            var facts: [String] = []
            if let values = argument.allValues, !values.isEmpty { facts.append("Values: " + values.joined(separator: ", ") + ".") }
            if let value = argument.defaultValue { facts.append("Default: " + value + ".") }
            if !facts.isEmpty { page.text(facts.joined(separator: " ")) }
        }
        page.macro("El")
    }

    page.macro("Sh", "SEE ALSO")
    let related = command.superCommands == nil ? command.documentedSubcommands.map(\.pageName) : [root.pageName]
    for (index, name) in related.enumerated() {
        page.macro("Xr", name, "1" + (index < related.count - 1 ? " ," : ""))
    }
    return page.lines.joined(separator: "\n") + "\n"
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let folder = arguments.first else {
    FileHandle.standardError.write(Data("usage: fetch-history --experimental-dump-help | swift Scripts/man-pages.swift DIR\n".utf8))
    exit(64)
}
let description = FileHandle.standardInput.readDataToEndOfFile()
let tool: ToolInfo
do {
    tool = try JSONDecoder().decode(ToolInfo.self, from: description)
} catch {
    FileHandle.standardError.write(Data("man-pages: not a description of the commands (--experimental-dump-help): \(error)\n".utf8))
    exit(1)
}
guard tool.serializationVersion == 0 else {
    FileHandle.standardError.write(Data("man-pages: the description is of version \(tool.serializationVersion); this script reads version 0\n".utf8))
    exit(1)
}
let formatter = DateFormatter()
formatter.locale = Locale(identifier: "en_US_POSIX")
formatter.dateFormat = "MMMM d, yyyy"
let date = formatter.string(from: Date())
for command in [tool.command] + tool.command.documentedSubcommands {
    let path = URL(fileURLWithPath: folder).appendingPathComponent(command.pageName + ".1")
    try page(for: command, root: tool.command, date: date).write(to: path, atomically: true, encoding: .utf8)
    print(path.path)
}
