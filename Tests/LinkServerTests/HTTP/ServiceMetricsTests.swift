import Testing

@testable import LinkServer

/// The request metrics: series found through the endpoint's label, latency histograms in the Prometheus text format.
@Suite struct ServiceMetricsTests {
    static func summary(
        _ endpoint: EndpointLabel, method: String = "GET", status: Int = 200, microseconds: Int64 = 30
    ) -> RequestSummary {
        RequestSummary(
            method: method, target: "/x", endpoint: endpoint, status: status, duration: .microseconds(microseconds),
            requestID: "id", answered: true)
    }

    static func lines(_ metrics: ServiceMetrics) -> [Substring] {
        String(decoding: metrics.render(), as: UTF8.self).split(separator: "\n")
    }

    @Test func latencyBucketsAreCumulativeWithSumAndCount() {
        let histogram = LatencyHistogram(
            bounds: [.microseconds(50), .milliseconds(1), .seconds(1)], labels: [("endpoint", "/a"), ("method", "GET")])
        for microseconds: Int64 in [10, 50, 51, 999, 2_000_000] { histogram.record(.microseconds(microseconds)) }
        var text = ""
        histogram.render(name: "t", into: &text)
        #expect(
            text == """
                t_bucket{endpoint="/a",method="GET",le="0.00005"} 2
                t_bucket{endpoint="/a",method="GET",le="0.001"} 4
                t_bucket{endpoint="/a",method="GET",le="1.0"} 4
                t_bucket{endpoint="/a",method="GET",le="+Inf"} 5
                t_sum{endpoint="/a",method="GET"} 2.00111
                t_count{endpoint="/a",method="GET"} 5

                """)
    }

    @Test(arguments: [
        (Int64(0), "0.0"), (50_000, "0.00005"), (1_000_000_000, "1.0"), (60_000_000_000, "60.0"),
        (1_234_567_891, "1.234567891"),
    ])
    func secondsAreWrittenAsSwiftPrometheusWritesDurations(nanoseconds: Int64, text: String) {
        #expect(LatencyHistogram.seconds(.nanoseconds(nanoseconds)) == text)
    }

    @Test func labelValuesAreEscaped() {
        #expect(LatencyHistogram.escapedLabelValue(#"a"b\c"# + "\n") == #"a\"b\\c\n"#)
    }

    @Test func requestsAreCountedPerEndpointMethodAndStatus() {
        let metrics = ServiceMetrics()
        let healthz = EndpointLabel("/healthz")
        for _ in 0..<3 { metrics.record(Self.summary(healthz)) }
        metrics.record(Self.summary(healthz, method: "BREW", status: 405))
        metrics.record(Self.summary(healthz, method: "HEAD"))
        let lines = Self.lines(metrics)
        #expect(lines.contains(#"linkserver_http_requests_total{endpoint="/healthz",method="GET",status="200"} 3"#))
        #expect(lines.contains(#"linkserver_http_requests_total{endpoint="/healthz",method="other",status="405"} 1"#))
        #expect(lines.contains(#"linkserver_http_requests_total{endpoint="/healthz",method="HEAD",status="200"} 1"#))
        // One histogram per endpoint and method, shared by its statuses; the family's type is written once.
        let name = "linkserver_http_request_duration_seconds"
        #expect(lines.filter { $0 == "# TYPE \(name) histogram" }.count == 1)
        #expect(lines.contains("\(name)_count{endpoint=\"/healthz\",method=\"GET\"} 3"))
        #expect(lines.contains("\(name)_count{endpoint=\"/healthz\",method=\"other\"} 1"))
        #expect(lines.contains("\(name)_bucket{endpoint=\"/healthz\",method=\"GET\",le=\"0.00005\"} 3"))
        #expect(lines.filter { $0.hasPrefix("\(name)_count") }.count == 3)
    }

    @Test func twoLabelsWithOneNameShareTheirSeries() {
        let metrics = ServiceMetrics()
        metrics.record(Self.summary(EndpointLabel("links:click"), status: 302))
        metrics.record(Self.summary(EndpointLabel("links:click"), status: 302))
        let lines = Self.lines(metrics)
        #expect(lines.contains(#"linkserver_http_requests_total{endpoint="links:click",method="GET",status="302"} 2"#))
        #expect(
            lines.contains(#"linkserver_http_request_duration_seconds_count{endpoint="links:click",method="GET"} 2"#))
    }

    @Test func aLabelRecordsIntoEachServiceApart() {
        let label = EndpointLabel("/v1/resolve")
        let first = ServiceMetrics()
        let second = ServiceMetrics()
        first.record(Self.summary(label))
        first.record(Self.summary(label))
        second.record(Self.summary(label))
        #expect(
            Self.lines(first).contains(
                #"linkserver_http_requests_total{endpoint="/v1/resolve",method="GET",status="200"} 2"#))
        #expect(
            Self.lines(second).contains(
                #"linkserver_http_requests_total{endpoint="/v1/resolve",method="GET",status="200"} 1"#))
    }

    /// `/proc/PID/stat`: the command name may hold spaces and parentheses; fields are counted from the last `)`.
    @Test func statFieldsAreCountedFromTheLastParenthesis() {
        let line =
            "4242 (Link (Server) 2) S 1 4242 4242 0 -1 4194560 5000 0 12 0 150 37 0 0 20 0 9 0 98765 812345344 2048 "
            + "18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n"
        #expect(
            ProcessMetrics.parseStat(line)
                == ProcessMetrics.Stat(
                    userTicks: 150, systemTicks: 37, startTicks: 98765, virtualBytes: 812_345_344, residentPages: 2048))
        #expect(ProcessMetrics.parseStat("4242 (x) S 1 2") == nil)
        #expect(ProcessMetrics.parseStat("garbage") == nil)
    }
}
