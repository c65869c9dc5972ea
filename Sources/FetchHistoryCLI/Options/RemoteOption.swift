import ArgumentParser
import FetchHistory

/// The team history `push` sends to and `pull` brings from: a
/// `postgres://` URL, else `$FETCH_HISTORY_REMOTE`; and for `push`, a
/// collector of OpenTelemetry spans (`PushTarget`).
enum RemoteOption {
    /// `given`, else the environment's; refused unless it is a server's URL.
    static func url(_ given: String?, option: String, environment: (String) -> String? = Environment.variable) throws -> String {
        guard let url = given ?? nonEmpty(environment("FETCH_HISTORY_REMOTE")) else {
            throw ValidationError("say which team history: \(option) postgres://… or set FETCH_HISTORY_REMOTE")
        }
        let named = given == nil ? "FETCH_HISTORY_REMOTE" : option
        let accepted = "a team history's postgres:// or postgresql:// URL"
        guard case .server = try DatabaseArgument(url, option: named, accepts: accepted) else {
            throw ValidationError("\(named) takes \(accepted), not a file's path")
        }
        return url
    }

    /// Where `push` sends: `given` (`--to`), else `$FETCH_HISTORY_REMOTE`,
    /// each a team history's postgres:// URL or a collector's http(s):// one;
    /// else the collector OpenTelemetry's own variables name
    /// (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, as it is, then
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`, with `/v1/traces` added). A collector's
    /// headers are `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, else `OTEL_EXPORTER_OTLP_HEADERS`.
    static func pushTarget(_ given: String?, environment: (String) -> String? = Environment.variable) throws -> PushTarget {
        let headers = Self.headers(environment)
        if let text = given ?? nonEmpty(environment("FETCH_HISTORY_REMOTE")) {
            let named = given == nil ? "FETCH_HISTORY_REMOTE" : "--to"
            guard isHTTP(text) else { return .team(try url(given, option: "--to", environment: environment)) }
            do { return .collector(try OTLPEndpoint(base: text, headers: headers.value)) } catch {
                throw refusal(error, named: named, headers: headers.name)
            }
        }
        if let traces = nonEmpty(environment("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) {
            do { return .collector(try OTLPEndpoint(traces: traces, headers: headers.value)) } catch {
                throw refusal(error, named: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", headers: headers.name)
            }
        }
        if let base = nonEmpty(environment("OTEL_EXPORTER_OTLP_ENDPOINT")) {
            do { return .collector(try OTLPEndpoint(base: base, headers: headers.value)) } catch {
                throw refusal(error, named: "OTEL_EXPORTER_OTLP_ENDPOINT", headers: headers.name)
            }
        }
        throw ValidationError(
            "say where to push: --to postgres://… (a team history) or http(s)://… (a collector of spans), "
                + "or set FETCH_HISTORY_REMOTE or OTEL_EXPORTER_OTLP_ENDPOINT"
        )
    }

    /// The headers' variable, and its value.
    private static func headers(_ environment: (String) -> String?) -> (name: String, value: String?) {
        if let value = nonEmpty(environment("OTEL_EXPORTER_OTLP_TRACES_HEADERS")) {
            return ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", value)
        }
        return ("OTEL_EXPORTER_OTLP_HEADERS", nonEmpty(environment("OTEL_EXPORTER_OTLP_HEADERS")))
    }

    /// An endpoint's refusal in words that name where the URL (`named`) or
    /// the headers came from, and never hold a header's value.
    private static func refusal(_ error: OTLPEndpointError, named: String, headers: String) -> ValidationError {
        switch error {
        case .notAnEndpoint(let shown):
            ValidationError("\(named) takes a collector's http:// or https:// URL with a host, not '\(shown)'")
        case .malformedHeader(let number):
            ValidationError("\(headers) takes name=value pairs separated by commas; pair \(number) is not one (its value is not shown)")
        }
    }

    /// Whether `text` starts with the http: or https: scheme, in any case.
    private static func isHTTP(_ text: String) -> Bool {
        let scheme = text.prefix { $0 != ":" }.lowercased()
        return (scheme == "http" || scheme == "https") && text.dropFirst(scheme.count).hasPrefix(":")
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Where `push` sends.
enum PushTarget: Equatable {
    /// A team history, at this postgres:// URL.
    case team(String)
    /// A collector of OpenTelemetry spans.
    case collector(OTLPEndpoint)
}
