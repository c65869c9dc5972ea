import ArgumentParser
import FetchHistory

// How a refused command line is reported: argument-parser's text, which
// starts `error: ` (`_errorPrefix`), completed where it cannot say why.

extension FetchHistoryCommand {
    /// Reports a usage error the way every other error is reported, as one
    /// `error: …` line, with one hint after it (`see 'fetch-history list
    /// --help'`), and exits 64; a request for help or the version prints it,
    /// its usage line wrapped to the terminal, and exits 0, as does a
    /// completion script (`CompletionScript`).
    static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else {
            // `--generate-completion-script` also ends here, its script as the message.
            let text = CompletionScript.withGlobalOptions(fullMessage(for: error)).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("USAGE: ") ? wrappedUsage(String($0), width: Terminal.width ?? 80) : String($0) }
            print(text.joined(separator: "\n"))
            ThisProcess.exit(ExitCode.success.rawValue)
        }
        let given = Array(CommandLine.arguments.dropFirst())
        if let message = unknownCommandMessage(given) {
            StandardError.write("error: \(message)\n")
            ThisProcess.exit(ExitCode.validationFailure.rawValue)
        }
        // The first line is the prefix and `message(for:)`; the reason ends it.
        // argument-parser's usage and help lines after it give way to one hint.
        let lines = (_errorPrefix + message(for: error)).split(separator: "\n", omittingEmptySubsequences: false)
        var line = String(lines[0])
        if let reason = reason(for: line, given: given) { line += ": " + reason }
        // Six values or more come as a bulleted list after a colon: they finish the sentence.
        let values = lines.dropFirst().prefix { $0.hasPrefix("  - ") }.map { "'\($0.dropFirst(4))'" }
        if line.hasSuffix(":"), let last = values.last {
            line += " " + (values.count > 1 ? values.dropLast().joined(separator: ", ") + " or " : "") + last + "."
        }
        let command = arguments(given).first.flatMap { commandNames.contains($0) && $0 != "help" ? " " + $0 : nil } ?? ""
        StandardError.write(line + "\nsee 'fetch-history\(command) --help'\n")
        ThisProcess.exit(code.rawValue)
    }

    /// A `USAGE: …` line broken between its options to fit `width`, each
    /// line after the first indented under the command's first option.
    static func wrappedUsage(_ line: String, width: Int) -> String {
        // Words, a bracketed group (`[--database <path>]`) being one.
        var words: [String] = [], word = "", depth = 0
        for character in line {
            if character == " ", depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "[" || character == "<" { depth += 1 }
            if character == "]" || character == ">" { depth = max(0, depth - 1) }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        // `USAGE: fetch-history list`: the words before the first option.
        let head = words.prefix { !$0.hasPrefix("[") && !$0.hasPrefix("-") && !$0.hasPrefix("<") }
        let indent = String(repeating: " ", count: head.joined(separator: " ").count + 1)
        var lines = [head.joined(separator: " ")]
        for word in words.dropFirst(head.count) {
            if lines[lines.count - 1].count + 1 + word.count > width, lines[lines.count - 1].count > indent.count {
                lines.append(indent + word)
            } else {
                lines[lines.count - 1] += " " + word
            }
        }
        return lines.joined(separator: "\n")
    }

    /// "'lst' is not a fetch-history command; did you mean 'list'?", when the
    /// first word that is not a global option names no command; or that
    /// global options were given with no command at all.
    private static func unknownCommandMessage(_ given: [String]) -> String? {
        let end = globalOptionsEnd(given)
        if end > 0, end == given.count {
            return "\(given[0]) needs a command after it, as in: fetch-history \(given[..<end].joined(separator: " ")) list"
        }
        if given.count == 1, DatabaseOptions.globalOptions.contains(given[0]) {
            return "\(given[0]) needs a value and a command after it, as in: fetch-history \(given[0]) \(given[0] == "--color" ? "never" : "history.sqlite") list"
        }
        let words = arguments(given)
        guard let word = words.first, !word.hasPrefix("-") else { return nil }
        guard !commandNames.contains(word) else { return nil }
        let shown = word.terminalSafe
        let closest = commandNames.map { (name: $0, distance: $0.editDistance(to: word)) }.min { $0.distance < $1.distance }
        if let closest, closest.distance <= 2, closest.distance < word.count {
            return "'\(shown)' is not a fetch-history command; did you mean '\(closest.name)'?"
        }
        return "'\(shown)' is not a fetch-history command; the commands are \(commandNames.dropLast().joined(separator: ", ")) (see fetch-history --help)"
    }

    /// Every command's name, `help` last.
    private static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// Why the command line `given` was refused with `firstLine`, when
    /// argument-parser cannot say: its values otherwise explain themselves,
    /// through the typed errors of their `transform`s.
    ///
    /// Two refusals never reach our code, so each is recognised by parsing
    /// the option alone: the same first line means the same refusal, in
    /// whatever words argument-parser has, and none of its text is matched.
    /// - A negative number after an option that reads its value the usual
    ///   way (`prune --keep -1`): argument-parser takes `-1` for an option
    ///   and says the value is missing.
    /// - A refused `fetch --interval`, which parses as `ExpressibleByArgument`
    ///   for its help to show its default (a transform leaves it out).
    private static func reason(for firstLine: String, given: [String]) -> String? {
        negativeNumberReason(for: firstLine, given: given) ?? intervalReason(for: firstLine, given: given)
    }

    /// "'-1' is negative, and no option takes a negative value", when
    /// `firstLine` says the value of the option before `-1` is missing:
    /// argument-parser says so for the option alone, and not once a value
    /// follows it (an unknown option says the same either way).
    private static func negativeNumberReason(for firstLine: String, given: [String]) -> String? {
        let command = arguments(given).first.flatMap { commandNames.contains($0) ? [$0] : nil } ?? []
        for (index, option) in given.enumerated().dropLast() where option.hasPrefix("-") && given.firstIndex(of: option) == index {
            let value = given[index + 1]
            guard value.hasPrefix("-"), value.dropFirst().first?.isNumber == true else { continue }
            let alone = command + [option]
            guard refusal(parsing: alone) == firstLine, refusal(parsing: alone + ["0"]) != firstLine else { continue }
            return "'\(value.terminalSafe)' is negative, and no option takes a negative value"
        }
        return nil
    }

    /// Why `fetch --interval` refused its value, when `firstLine` is the
    /// refusal of that value.
    private static func intervalReason(for firstLine: String, given: [String]) -> String? {
        let name = "--interval"
        let values = given.indices.compactMap { index -> String? in
            if given[index] == name { return index + 1 < given.count ? given[index + 1] : nil }
            return given[index].hasPrefix(name + "=") ? String(given[index].dropFirst(name.count + 1)) : nil
        }
        for value in values {
            // A value that parses (a negative one too: `validate()` refuses
            // that in a sentence of its own) needs no reason.
            let why: DurationArgument.ParseError
            do {
                _ = try DurationArgument(parsing: value)
                continue
            } catch {
                why = error
            }
            guard refusal(parsing: [FetchCommand._commandName, name, value]) == firstLine else { continue }
            return why.description
        }
        return nil
    }

    /// The first line of argument-parser's error for `words`, or
    /// nil when they parse (or ask for help).
    private static func refusal(parsing words: [String]) -> String? {
        do {
            _ = try parseAsRoot(words)
            return nil
        } catch {
            return exitCode(for: error) == .success ? nil : _errorPrefix + message(for: error)
        }
    }
}
