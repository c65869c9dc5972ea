import Testing
@testable import FetchHistoryInterchange

/// Where `push` sends spans, from the URL and headers OpenTelemetry's
/// variables give: `/v1/traces` added to a base URL, headers decoded, and
/// refusals that never hold a header's value.
struct OTLPEndpointTests {
    @Test(arguments: [
        ("http://collector:4318", "http://collector:4318/v1/traces"),
        ("http://collector:4318/", "http://collector:4318/v1/traces"),
        ("https://otlp.example/api/otel", "https://otlp.example/api/otel/v1/traces"),
        ("HTTPS://otlp.example/v1/traces", "HTTPS://otlp.example/v1/traces"),
        ("http://127.0.0.1:4318/?tenant=a", "http://127.0.0.1:4318/v1/traces?tenant=a"),
    ])
    func aBaseURLTakesTracesAtV1Traces(base: String, traces: String) throws {
        #expect(try OTLPEndpoint(base: base).tracesURL == traces)
    }

    @Test func aTracesURLIsTakenAsItIs() throws {
        #expect(try OTLPEndpoint(traces: "http://collector:4318/custom").tracesURL == "http://collector:4318/custom")
    }

    @Test func headersAreNameValuePairsPercentDecodedWithAPlusKept() throws {
        let endpoint = try OTLPEndpoint(base: "http://c", headers: " x-api-key = a%2Cb+c== ,, Authorization=Basic%20dTpw ")
        #expect(endpoint.headers == [
            OTLPEndpoint.Header(name: "x-api-key", value: "a,b+c=="),
            OTLPEndpoint.Header(name: "Authorization", value: "Basic dTpw"),
        ])
        #expect(try OTLPEndpoint(base: "http://c", headers: "").headers.isEmpty)
    }

    @Test(arguments: ["novalue", "=v", "bad name=v", "x=a%0Ab", "x=1,secret"])
    func aMalformedPairIsRefusedByItsNumberNotItsValue(headers: String) {
        #expect(throws: OTLPEndpointError.self) { try OTLPEndpoint(base: "http://c", headers: headers) }
        do {
            _ = try OTLPEndpoint(base: "http://c", headers: headers)
        } catch {
            #expect(!"\(error)".contains("secret") && !"\(error)".contains("novalue"))
        }
    }

    @Test(arguments: ["postgres://h/db", "http://", "http:/h", "ftp://h", "h:4318", ""])
    func anythingButAnHTTPURLWithAHostIsRefused(text: String) {
        #expect(throws: OTLPEndpointError.self) { try OTLPEndpoint(base: text) }
    }

    @Test func itIsShownWithItsSecretsHiddenAndNamedByItsHostAndPort() throws {
        let endpoint = try OTLPEndpoint(base: "https://u:pw@otlp.example:4318/?api_key=k")
        #expect(endpoint.shown == "https://***:***@otlp.example:4318/v1/traces?api_key=***")
        #expect(endpoint.authority == "otlp.example:4318")
    }
}
