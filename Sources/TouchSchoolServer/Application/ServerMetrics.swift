import Prometheus

/// What `GET /metrics` shows, in Prometheus' text format: connections, taps accepted and refused,
/// saves and how long they take. Nothing here is per player.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let connections: Gauge
    let boardStreams: Gauge
    package let sshGames: Gauge
    package let connectionsRefused: Counter
    let requestsRefused: Counter
    let protocolErrors: Counter
    let batches: Counter
    let duplicateBatches: Counter
    let tapsAccepted: Counter
    let tapsRefused: Counter
    let commits: Counter
    let commitFailures: Counter
    let commitLatency: DurationHistogram
    let broadcasts: Counter
    let boardPolls: Counter
    let storeAvailable: Gauge
    /// Players connected and taps counted, as `serve` tells the teacher.
    package let activity = ActivityCounts()

    init() {
        connections = registry.makeGauge(descriptor: .init(namespace: "touchschool", metricName: "open", unitName: "connections", helpText: "Open play connections."))
        boardStreams = registry.makeGauge(descriptor: .init(namespace: "touchschool", metricName: "open", unitName: "board_streams", helpText: "Open board streams (GET /v1/board)."))
        sshGames = registry.makeGauge(descriptor: .init(namespace: "touchschool", metricName: "open", unitName: "ssh_games", helpText: "Games played over SSH (serve --ssh-port), a thread each."))
        connectionsRefused = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "connections_refused", unitName: "total", helpText: "Connections or devices refused by the per-address limits."))
        requestsRefused = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "requests_refused", unitName: "total", helpText: "HTTP requests answered 429 by the per-address request budgets."))
        protocolErrors = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "protocol_errors", unitName: "total", helpText: "Connections closed for a malformed, oversized or out-of-order message."))
        batches = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "batches", unitName: "total", helpText: "Batches applied."))
        duplicateBatches = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "batches_duplicate", unitName: "total", helpText: "Batches received again after being applied (acknowledged, not counted)."))
        tapsAccepted = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "taps_accepted", unitName: "total", helpText: "Taps counted."))
        tapsRefused = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "taps_refused", unitName: "total", helpText: "Taps refused by the judge."))
        commits = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "commits", unitName: "total", helpText: "Saves of a commit window (one fsync, or one PostgreSQL transaction)."))
        commitFailures = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "commit_failures", unitName: "total", helpText: "Saves that failed (retried)."))
        commitLatency = registry.makeDurationHistogram(
            descriptor: .init(namespace: "touchschool", metricName: "commit", unitName: "seconds",
                              helpText: "Time to save one commit window (read, apply, write, fsync) under the lock."),
            buckets: [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1)])
        boardPolls = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "board_changes_read", unitName: "total", helpText: "Polls of the shared store that found totals changed by another server."))
        storeAvailable = registry.makeGauge(descriptor: .init(namespace: "touchschool", metricName: "store_available", unitName: "", helpText: "1 while the scores can be saved (the data directory or PostgreSQL), 0 while saving fails and acknowledgements wait."))
        storeAvailable.set(Double(1))
        broadcasts = registry.makeCounter(descriptor: .init(namespace: "touchschool", metricName: "board_broadcasts", unitName: "total", helpText: "Slices of the views sent after totals changed (each view is in one slice, sent at most every 250 ms)."))
    }

    func text() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
