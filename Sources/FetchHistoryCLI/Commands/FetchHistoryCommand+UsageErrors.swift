import ArgumentParser
import FetchHistory

// How a refused command line is reported: argument-parser's text, which
// starts `error: ` (`_errorPrefix`), completed where it cannot say why.

extension FetchHistoryCommand {
    /// Reports a usage error the way every other error is reported, as
    /// `error: …`, with the usage after it, and exits 64; a request for
    /// help or the version prints it and exits 0.
    static func fail(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }
        let given = Array(CommandLine.arguments.dropFirst())
        if let message = unknownCommandMessage(given) {
            StandardError.write("error: \(message)\n")
            ThisProcess.exit(ExitCode.validationFailure.rawValue)
        }
        var text = fullMessage(for: error)
        // The first line is the prefix and `message(for:)`; the reason ends it.
        let firstLine = _errorPrefix + message(for: error)
        if let reason = reason(for: firstLine, given: given), text.hasPrefix(firstLine) {
            text = firstLine + ": " + reason + text.dropFirst(firstLine.count)
        }
        StandardError.write(text + "\n")
        ThisProcess.exit(code.rawValue)
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
            guard case .failure(let why) = DurationArgument.parse(value),
                  refusal(parsing: [FetchCommand._commandName, name, value]) == firstLine
            else { continue }
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
