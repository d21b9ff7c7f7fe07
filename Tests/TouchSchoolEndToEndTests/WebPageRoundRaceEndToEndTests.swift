import Foundation
import Testing
import TouchSchoolProtocol
import TouchSchoolTestSupport

/// Issue 47's headline: the class round as the class sees it on the projector (`/?board`), in a
/// real headless Chromium against the real server. Seen before: for the whole race the projector
/// showed "0명 참가 · 아직 터치가 없습니다" while the players mashed, then jumped to the podium (the
/// page threw away every standings event that came within the second it was showing). Two players,
/// socket clients of the play protocol (in a browser of their own, as a phone's page would be),
/// tap through a 10 s round; the projector's shown text, read once a second, names them, their
/// counts rising at least every two seconds, also after a reload in the middle of the race; the
/// podium's counts are the server's (`GET /v1/rounds/ID`), and the previous rounds' link downloads
/// them as CSV. Every page and server a test opens is gone when it ends (the suite's browsers
/// when the suite does).
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized, .enabled(if: Browser.isInstalled, "chromium or chromedriver not found (scripts/test installs them): skipped"))
struct WebPageRoundRaceEndToEndTests {
    typealias Page = WebPageEndToEndTests

    /// The players: device key, name, school (서울고, 경기고 of the starter catalog), taps a batch (a
    /// batch every 500 ms: 6 and 4 taps a second, well inside what the server believes of a person).
    static let players: [(device: String, name: String, school: String, perBatch: Int)] = [
        ("minsuAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "민수", "S0001", 3),
        ("jiwooAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "지우", "S0002", 2),
    ]

    /// Both players' sockets, said hello and welcomed, in the page of `browser`; `window.tapBetween(from, until)` then sends
    /// each player's batch every 500 ms between those wall-clock moments (made over the 400 ms before it).
    static func connectPlayers(_ browser: Browser, to server: ServerProcess) throws {
        let players = players.map { [$0.device, $0.name, $0.school, $0.perBatch] as [Any] }
        try browser.script("""
            window.players = arguments[0].map(([device, name, school, perBatch]) => {
              const player = { school, perBatch, seq: 0, welcomed: false, socket: new WebSocket(`ws://${location.host}/v1/play`) };
              player.socket.onopen = () => player.socket.send(JSON.stringify({ type: 'hello', protocol: 2, device, player: name, client: 'web' }));
              player.socket.onmessage = (event) => {
                const message = JSON.parse(event.data);
                if (message.type === 'welcome') { player.welcomed = true; player.seq = message.lastSeq; }
              };
              return player;
            });
            window.tapBetween = (from, until) => {
              const timer = setInterval(() => {
                const now = Date.now();
                if (now >= until) { clearInterval(timer); return; }
                if (now < from) return;
                for (const player of window.players) {
                  player.seq += 1;
                  const batch = { type: 'taps', seq: player.seq, taps: { [player.school]: player.perBatch }, playerTaps: player.perBatch,
                                  best: player.perBatch * 2, startMs: now - 400, endMs: now };
                  if (player.seq === 1) batch.switchedTo = player.school;
                  player.socket.send(JSON.stringify(batch));
                }
              }, 500);
            };
            """, [players])
        try browser.waitFor("both players welcomed") {
            try browser.script("return window.players.every((player) => player.welcomed)") as? Bool == true
        }
    }

    /// The projector's round standings as shown: each player's count by name (the podium's or the
    /// list's, whichever shows), and the round screen's shown text.
    static func shown(_ projector: Browser) throws -> (counts: [String: Int], text: String) {
        let read = try projector.string("""
            const screen = document.getElementById('round-screen');
            if (screen.hidden) return JSON.stringify({ counts: {}, text: '' });
            const counts = {};
            for (const row of document.querySelectorAll('#round-players li, #round-podium .step')) {
              const count = Number(row.querySelector('.t')?.textContent.replace(/[^0-9]/g, '') ?? NaN);
              for (const name of row.querySelectorAll('.name')) counts[name.textContent] = count;
            }
            return JSON.stringify({ counts, text: screen.innerText });
            """)
        struct Read: Decodable { var counts: [String: Int]; var text: String }
        let decoded = try JSONDecoder().decode(Read.self, from: Data(read.utf8))
        return (decoded.counts, decoded.text)
    }

    @Test func theProjectorShowsTheRaceLiveAndEndsOnTheServersCounts() throws {
        let server = try ServerProcess.forGames(catalog: nil)
        defer { server.stop() }
        let projector = try Browser(width: 1280, height: 720, touch: false)
        defer { projector.close() }
        let phones = try Browser(width: 400, height: 300, touch: false)
        defer { phones.close() }
        try projector.fillScreen(width: 1280, height: 720)
        try projector.open("\(server.baseURL)/?board")
        try projector.waitFor("the board") { Page.status(projector).state == "online" }
        try phones.open("\(server.baseURL)/v1/rounds")
        try Self.connectPlayers(phones, to: server)

        let started = DataCommandsBinary.run(["round", "start", "--server", server.baseURL, "--seconds", "10", "--json", "--data-dir", server.dataDirectory])
        try #require(started.status == 0, "round start: \(started.error)")
        let round = try JSONDecoder().decode(RoundAnswer.Summary.self, from: Data(started.output.utf8))
        try phones.script("window.tapBetween(arguments[0], arguments[1])", [round.startsAtMs + 500, round.endsAtMs - 700])

        // Once a second through the race, from the moment the first batches can be on the screen;
        // the projector reloaded halfway (as a teacher's F5, or a projector opened late).
        var samples: [(atMs: Int64, counts: [String: Int], text: String)] = []
        var reloaded = false
        var next = round.startsAtMs + 1_500
        while next < round.endsAtMs - 300 {
            Thread.sleep(until: Date(timeIntervalSince1970: Double(next) / 1_000))
            if !reloaded && next >= round.startsAtMs + 5_000 {
                reloaded = true
                try projector.open("\(server.baseURL)/?board")
                try projector.waitFor("the race again after the reload", timeout: 3) { try Self.shown(projector).counts.count == 2 }
            }
            let (counts, text) = try Self.shown(projector)
            samples.append((RoundEndToEndTests.wallMs(), counts, text))
            next += 1_000
        }
        let described = samples.map { "\($0.atMs - round.startsAtMs) ms: \($0.counts.sorted { $0.key < $1.key })" }.joined(separator: ", ")
        try #require(samples.count >= 6, "\(described)")
        print("the projector's race (ms after the start: counts shown): \(described)")
        for sample in samples {
            #expect(sample.text.contains("민수") && sample.text.contains("지우") && sample.text.contains("2명 참가"),
                    "at \(sample.atMs - round.startsAtMs) ms the projector showed: \(sample.text)")
        }
        // Each player's count rose from every sample to the first one at least 2 s after it.
        for (i, sample) in samples.enumerated() {
            guard let later = samples[(i + 1)...].first(where: { $0.atMs - sample.atMs >= 2_000 }) else { continue }
            for player in Self.players {
                #expect((later.counts[player.name] ?? 0) > (sample.counts[player.name] ?? 0),
                        "\(player.name) did not rise between \(sample.atMs - round.startsAtMs) and \(later.atMs - round.startsAtMs) ms: \(described)")
            }
        }

        // The podium, once final: the counts the server has.
        try projector.waitFor("the podium", timeout: 15) {
            try projector.string("return document.getElementById('round-screen').dataset.phase || ''") == "podium"
        }
        let answer = try LoopbackHTTP.request("GET", port: server.port, path: "/v1/rounds/\(round.id)", timeout: 10)
        try #require(answer.status == 200, "GET /v1/rounds/\(round.id): \(answer.status) \(answer.text)")
        let results = try JSONDecoder().decode(RoundAnswer.Results.self, from: answer.body)
        let counted = Dictionary(results.players.map { ($0.player ?? "", Int($0.count)) }, uniquingKeysWith: { first, _ in first })
        #expect(counted.count == 2 && counted.values.allSatisfy { $0 > 0 }, "\(results.players)")
        #expect(try Self.shown(projector).counts == counted)

        // The round among the previous rounds, its results to download as CSV from the list and
        // from the round shown: the server's file, an attachment.
        try projector.script("document.getElementById('to-rounds').click()")
        try projector.waitFor("the previous rounds") { try projector.script("return document.querySelector('#archive-list a.csv') !== null") as? Bool == true }
        let listed = try projector.string("return document.querySelector('#archive-list a.csv').getAttribute('href')")
        #expect(listed == "/v1/rounds/\(round.id)/results.csv")
        try projector.script("document.querySelector('#archive-list button').click()")
        try projector.waitFor("the round's results") { try projector.script("return document.getElementById('archive-detail').hidden") as? Bool == false }
        #expect(try projector.string("return document.getElementById('archive-csv').getAttribute('href')") == listed)
        let download = Subprocess.run("/usr/bin/curl", ["-s", "--max-time", "10", "-D", "-", "\(server.baseURL)\(listed)"]).output
        let headers = download.components(separatedBy: "\r\n\r\n").first?.lowercased() ?? ""
        #expect(headers.hasPrefix("http/1.1 200") && headers.contains("content-type: text/csv") && headers.contains("attachment"), "\(headers)")
        #expect(download.contains("민수") && download.contains("지우"), "\(download)")

        projector.close()
        phones.close()
    }
}
