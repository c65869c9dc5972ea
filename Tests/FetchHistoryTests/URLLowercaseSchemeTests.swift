import FetchHistory
import FetchHistoryHTTP
import Foundation
import Testing

/// Schemes are case-insensitive; URLSession on Linux is not.
@Suite("An upper-case scheme is lowered before URLSession sees it")
struct URLLowercaseSchemeTests {
    @Test(arguments: [
        ("HTTP://example.com/n?Token=ABC", "http://example.com/n?Token=ABC"),
        ("Https://User:PW@example.com:8443/N#F", "https://User:PW@example.com:8443/N#F"),
        ("http://example.com/n", "http://example.com/n"),
    ])
    func onlyTheSchemeChanges(given: String, expected: String) throws {
        // Given a URL, When its scheme is lowered, Then the rest is untouched
        let url = try #require(URL(string: given))
        #expect(url.withLowercaseScheme.absoluteString == expected)
    }

    @Test(arguments: HTTPClientUnderTest.allCases)
    func theHTTPClientAsksAndRecordsTheLowerCaseURL(_ client: HTTPClientUnderTest) throws {
        // Given an HTTP:// URL
        let client = client.client(url: try #require(URL(string: "HTTP://example.com/n?key=s")))

        // Then the client's URL and recorded source are http://, the secret still hidden
        #expect(client.url.absoluteString == "http://example.com/n?key=s")
        #expect(client.source == "http://example.com/n?key=***")
    }
}
