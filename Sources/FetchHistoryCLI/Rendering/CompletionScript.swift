/// argument-parser's completion scripts, taught that `-d`/`--database` and
/// `--color` may come before the command's name, as `fetch-history -d
/// team.sqlite show` is typed and as the program itself reads it
/// (`FetchHistoryCommand.arguments(_:)`).
///
/// Declared on the root command, the options would be in the scripts, but
/// the parser would then read `prune --before -30d` as the root's short
/// options: so the commands declare them, and the root's part of each script
/// is given them here. Each edit is anchored on a line argument-parser 1.8
/// writes for the root alone; a script whose anchor is missing is left as it
/// is (and `ValueCompletionTests` says so).
enum CompletionScript {
    /// `script` with the options added to its root command, whichever
    /// shell's it is.
    static func withGlobalOptions(_ script: String) -> String {
        if script.hasPrefix("#!/bin/bash") { return bash(script) }
        if script.hasPrefix("#compdef") { return zsh(script) }
        if script.contains("function __fetch-history_parse_tokens") { return fish(script) }
        return script
    }

    private static func bash(_ script: String) -> String {
        script.replacing(
            """
                local -a non_repeating_options=()
                __fetch-history_offer_flags_options 0

            """,
            with: """
                local -a non_repeating_options=(-d --database --color)
                __fetch-history_offer_flags_options 0

                # Every command's options, before its name.
                case "${prev}" in
                '-d'|'--database')
                    __fetch-history_add_completions -f
                    return
                    ;;
                '--color')
                    __fetch-history_add_completions -W 'auto'$'\\n''always'$'\\n''never'
                    return
                    ;;
                esac

            """,
            maxReplacements: 1
        )
    }

    private static func zsh(_ script: String) -> String {
        script.replacing(
            """
                    '(-): :->command'

            """,
            with: """
                    '(-d --database)'{-d,--database}'[The history database file.]:path:_files'
                    '--color[Colour the outcomes\\: auto, always or never.]:when:(auto always never)'
                    '(-): :->command'

            """,
            maxReplacements: 1
        )
    }

    private static func fish(_ script: String) -> String {
        script.replacing(
            """
                    __fetch-history_parse_subcommand 0 'version' 'h/help'

            """,
            with: """
                    __fetch-history_parse_subcommand 0 'd/database=' 'color=' 'version' 'h/help'

            """,
            maxReplacements: 1
        ) + (script.hasSuffix("\n") ? "" : "\n") + """
            complete -c 'fetch-history' -n '__fetch-history_should_offer_completions_for_flags_or_options "fetch-history" d database' -s 'd' -l 'database' -d 'The history database file.' -rF
            complete -c 'fetch-history' -n '__fetch-history_should_offer_completions_for_flags_or_options "fetch-history" color' -l 'color' -d 'Colour the outcomes: auto, always or never.' -rfka 'auto always never'

            """
    }
}
