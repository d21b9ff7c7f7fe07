import Foundation
import Testing
import TouchSchoolTestSupport

/// The map of the schools on the page, in a real headless Chromium against the real server with
/// the official list imported (`../shared/data`; skipped without it): the projector at 1920×1080
/// and a phone at 390×844, with players tapping for schools of Seoul, Busan and Jeju. Read from the
/// screenshots' pixels (decoded by the page itself, from a `data:` image), not from the DOM: the
/// peninsula's dots where the schools are and none in the sea, the tapping provinces glowing, the
/// league's province lit, my school ringed; the words in Korean and English. The screenshots are
/// kept as map-projector.png and map-phone.png in `.build/screenshots` (`save`), never in
/// docs/screenshots: they are drawn from the official list, which is not the repository's.
@Suite(.onOwnThreads, .tags(.process, .browser), .sharedBrowsers(), .serialized,
       .enabled(if: Browser.isInstalled, "chromium, chromedriver or curl not found (scripts/test installs them): skipped"),
       .enabled(if: FileManager.default.fileExists(atPath: MapEndToEndTests.officialList), "../shared/data not found: skipped"))
struct WebPageMapEndToEndTests {
    typealias Page = WebPageEndToEndTests

    /// The three provinces whose schools tap, the one lit as the projector's league, one that
    /// neither taps nor is lit (far enough from the others that no glow reaches it), and the lit
    /// one's neighbour.
    static let tapping = ["서울특별시", "부산광역시", "제주특별자치도"]
    static let lit = "부산광역시"
    static let quiet = "대구광역시"
    static let besideLit = "경상남도"

    /// Keeps a screenshot in `.build/screenshots`, whatever TOUCHSCHOOL_SCREENSHOTS says.
    static func save(_ png: Data, as name: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try png.write(to: folder.appendingPathComponent(name))
    }

    /// A server on a data directory with the official list imported, listening on every
    /// interface as in a classroom (on 127.0.0.1 the projector says at length that no phone can
    /// join, under the join code, and the map has that much less room).
    static func server(in folder: TemporaryDirectory) throws -> ServerProcess {
        let data = folder.path + "/data"
        let imported = DataCommandsBinary.run(["import", MapEndToEndTests.officialList, "--data-dir", data])
        try #require(imported.status == 0, "\(imported.error)")
        return try ServerProcess.start(dataDirectory: data, host: "0.0.0.0")
    }

    /// One player for the first school of each tapping province, in `browser`'s page, tapping 24
    /// times a second (blazing: `MapGlow`) until the page closes; their school ids, by province.
    static func startPlayers(in browser: Browser) throws -> [String: String] {
        _ = try browser.script("""
            window.playerSchools = null;
            const provinces = arguments[0];
            fetch('/v1/schools').then((answer) => answer.json()).then((directory) => {
              const at = (name) => directory.fields.indexOf(name);
              const schools = {};
              for (const row of directory.schools) if (provinces.includes(row[at('province')]) && !schools[row[at('province')]]) schools[row[at('province')]] = row[at('id')];
              Object.values(schools).forEach((school, index) => {
                const device = `mapPlayer${index}`.padEnd(43, 'A');
                const player = { seq: 0, socket: new WebSocket(`ws://${location.host}/v1/play`) };
                player.socket.onopen = () => player.socket.send(JSON.stringify({ type: 'hello', protocol: 2, device, player: `p${index}`, client: 'web' }));
                player.socket.onmessage = (event) => {
                  const message = JSON.parse(event.data);
                  if (message.type !== 'welcome') return;
                  player.seq = message.lastSeq;
                  setInterval(() => {
                    const now = Date.now();
                    player.seq += 1;
                    const batch = { type: 'taps', seq: player.seq, taps: { [school]: 12 }, playerTaps: 12, best: 24, startMs: now - 450, endMs: now };
                    if (player.seq === 1) batch.switchedTo = school;
                    player.socket.send(JSON.stringify(batch));
                  }, 500);
                };
              });
              window.playerSchools = JSON.stringify(schools);
            });
            """, [tapping])
        var schools: [String: String] = [:]
        try browser.waitFor("the players' schools") {
            guard let text = try browser.script("return window.playerSchools") as? String,
                  let read = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] else { return false }
            schools = read
            return schools.count == tapping.count
        }
        return schools
    }

    /// The map as a screenshot shows it, read by the page from the PNG's pixels where the grid
    /// (`GET /v1/map`, decoded by the page's own map.js) puts each cell in `#map-canvas`'s box:
    /// per province, the share of its cells whose centre shows a dot, its glowing pixels (red and
    /// orange) and its lit dots (light blue); the sea's cells (six cells or more from any school)
    /// that show anything; the green pixels of my school's ring.
    static func read(_ png: Data, in browser: Browser) throws -> [String: Any] {
        _ = try browser.script("""
            window.mapRead = null;
            const png = arguments[0], provinces = arguments[1];
            (async () => {
              const { decodeGrid } = await import('/map.js');
              const grid = decodeGrid(await (await fetch('/v1/map')).json());
              const image = new Image();
              image.src = 'data:image/png;base64,' + png;
              await image.decode();
              const canvas = document.createElement('canvas');
              canvas.width = image.width;
              canvas.height = image.height;
              const context = canvas.getContext('2d');
              context.drawImage(image, 0, 0);
              const pixels = context.getImageData(0, 0, image.width, image.height).data;
              const scale = image.width / innerWidth;
              const pixel = (x, y) => { const at = (Math.round(y * scale) * image.width + Math.round(x * scale)) * 4; return [pixels[at], pixels[at + 1], pixels[at + 2]]; };
              const box = document.getElementById('map-canvas').getBoundingClientRect();
              const size = Math.min(box.width / grid.columns, box.height / grid.rows);
              const left = box.left + (box.width - size * grid.columns) / 2, top = box.top + (box.height - size * grid.rows) / 2;
              // A cell's centre and the pixels around it (a dot of a few pixels is smoothed at its edge).
              const around = (x, y, test) => {
                for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) if (test(pixel(left + (x + 0.5) * size + dx, top + (y + 0.5) * size + dy))) return true;
                return false;
              };
              // The canvas's background, #0b0e14: anything else is drawn.
              const drawn = ([r, g, b]) => Math.abs(r - 11) + Math.abs(g - 14) + Math.abs(b - 20) > 40;
              const glowing = ([r, g, b]) => r > 180 && g < 150 && b < 110;
              // The league's dots are light blue (#9cc4ff), the others grey-blue (#5a6478), the glow orange.
              const lit = ([r, g, b]) => b > r + 40;
              const green = ([r, g, b]) => g > 170 && r < 130 && b < 130;
              const answer = { columns: grid.columns, rows: grid.rows, cellPixels: size, provinces: {} };
              for (const province of provinces) {
                const cells = grid.cells.filter((cell) => cell.province === province);
                const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
                let glow = 0;
                for (let x = Math.min(...xs); x <= Math.max(...xs); x++) for (let y = Math.min(...ys); y <= Math.max(...ys); y++) {
                  for (let dx = 0; dx < size; dx++) for (let dy = 0; dy < size; dy++) {
                    if (glowing(pixel(left + x * size + dx, top + y * size + dy))) glow += 1;
                  }
                }
                answer.provinces[province] = { cells: cells.length, dots: cells.filter((c) => around(c.x, c.y, drawn)).length / cells.length,
                  lit: cells.filter((c) => around(c.x, c.y, lit)).length / cells.length, glow,
                  west: Math.min(...xs), east: Math.max(...xs), north: Math.min(...ys), south: Math.max(...ys) };
              }
              const near = new Uint8Array(grid.columns * grid.rows);
              for (const cell of grid.cells) for (let dx = -6; dx <= 6; dx++) for (let dy = -6; dy <= 6; dy++) {
                const x = cell.x + dx, y = cell.y + dy;
                if (x >= 0 && y >= 0 && x < grid.columns && y < grid.rows) near[y * grid.columns + x] = 1;
              }
              let sea = 0, seaDrawn = 0;
              for (let y = 0; y < grid.rows; y++) for (let x = 0; x < grid.columns; x++) {
                if (near[y * grid.columns + x]) continue;
                sea += 1;
                if (around(x, y, drawn)) seaDrawn += 1;
              }
              answer.sea = sea;
              answer.seaDrawn = seaDrawn;
              // My school's ring (#5fd35f) anywhere on the map.
              answer.green = 0;
              for (let x = box.left; x < box.right; x++) for (let y = box.top; y < box.bottom; y++) if (green(pixel(x, y))) answer.green += 1;
              window.mapRead = JSON.stringify(answer);
            })().catch((error) => { window.mapRead = JSON.stringify({ error: String(error) }); });
            """, [png.base64EncodedString(), Self.tapping + [Self.quiet, Self.besideLit]])
        var answer: [String: Any] = [:]
        try browser.waitFor("the screenshot read", timeout: 60) {
            guard let text = try browser.script("return window.mapRead") as? String else { return false }
            answer = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            return true
        }
        #expect(answer["error"] == nil, "\(answer)")
        return answer
    }

    /// What the map's own canvas shows now (its pixels, read by the page): how many are drawn,
    /// and how many glow.
    static func canvasPixels(_ browser: Browser) throws -> (drawn: Int, glowing: Int) {
        let text = try browser.string("""
            const canvas = document.getElementById('map-canvas');
            if (!canvas || canvas.width < 2) return '0 0';
            const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
            let drawn = 0, glowing = 0;
            for (let at = 0; at < data.length; at += 4) {
              if (data[at + 3] > 0) drawn += 1;
              if (data[at] > 180 && data[at + 1] < 150 && data[at + 2] < 110 && data[at + 3] > 200) glowing += 1;
            }
            return drawn + ' ' + glowing;
            """)
        let numbers = text.split(separator: " ").compactMap { Int($0) }
        return (numbers.first ?? 0, numbers.last ?? 0)
    }

    /// A screenshot and its reading once every tapping province glows its brightest (the colour
    /// `read` counts): each player's school reaches it a few seconds after its first batch, one
    /// player's later than another's when its socket opened later, so the first glow on the
    /// canvas says nothing of the others' (a run read Jeju before it blazed).
    static func readOnceAllGlow(_ browser: Browser) throws -> (screenshot: Data, answer: [String: Any]) {
        var shot = Data(), answer: [String: Any] = [:]
        try browser.waitFor("every tapping province glowing", timeout: 30) {
            shot = try browser.screenshot()
            answer = try read(shot, in: browser)
            return tapping.allSatisfy { (province(answer, $0)["glow"] ?? 0) > 0 }
        }
        return (shot, answer)
    }

    static func province(_ answer: [String: Any], _ name: String) -> [String: Double] {
        ((answer["provinces"] as? [String: Any])?[name] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// The peninsula from the screenshot's pixels: every tapping province's dots where its schools
    /// are, in their places relative to each other; nothing in the sea; the tapping provinces
    /// glowing and a province far from them not.
    static func expectTheMap(_ answer: [String: Any], _ screen: String) {
        for name in tapping {
            let read = province(answer, name)
            #expect((read["dots"] ?? 0) >= 0.9, "\(screen): \(name)'s cells show their dots: \(read)")
            #expect((read["glow"] ?? 0) > 0, "\(screen): \(name) taps and glows: \(read)")
        }
        #expect(province(answer, quiet)["glow"] == 0, "\(screen): \(quiet) does not tap: \(province(answer, quiet))")
        #expect((province(answer, quiet)["dots"] ?? 0) >= 0.9)
        let seoul = province(answer, "서울특별시"), busan = province(answer, "부산광역시"), jeju = province(answer, "제주특별자치도")
        #expect(jeju["north"]! > busan["south"]! && busan["north"]! > seoul["south"]!, "\(screen): Seoul, then Busan, then Jeju southwards")
        #expect(busan["west"]! > seoul["east"]! && jeju["east"]! < busan["west"]!, "\(screen): Busan east of Seoul and of Jeju")
        let sea = (answer["sea"] as? NSNumber)?.intValue ?? 0, seaDrawn = (answer["seaDrawn"] as? NSNumber)?.intValue ?? -1
        #expect(sea > 2_000, "\(screen): most of the box is sea: \(sea) cells")
        #expect(seaDrawn == 0, "\(screen): nothing drawn at sea: \(seaDrawn) of \(sea) cells")
    }

    @Test func theMapOnTheProjectorAndAPhoneWithTheOfficialList() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let server = try Self.server(in: folder)
        defer { server.stop() }
        let projector = try Browser(width: 1920, height: 1080, touch: false)
        defer { projector.close() }
        try projector.fillScreen(width: 1920, height: 1080)
        try projector.runBeforeEveryPage("window.errors = []; addEventListener('error', (e) => window.errors.push(String(e.message)));")
        try projector.open(server.baseURL + "/?board")
        try projector.waitFor("the map's dots") { try Self.canvasPixels(projector).drawn > 1_000 }
        let schools = try Self.startPlayers(in: projector)
        try projector.waitFor("the provinces to choose from") {
            try projector.script("return [...document.querySelectorAll('#league-province option')].some((o) => o.value === arguments[0])", [Self.lit]) as? Bool == true
        }
        _ = try projector.script("""
            const select = document.getElementById('league-province');
            select.value = arguments[0];
            select.dispatchEvent(new Event('change'));
            """, [Self.lit])
        try projector.waitFor("the tapping schools glowing") { try Self.canvasPixels(projector).glowing > 30 }
        let (screenshot, answer) = try Self.readOnceAllGlow(projector)
        try Self.save(screenshot, as: "map-projector.png")
        Self.expectTheMap(answer, "projector")
        #expect((Self.province(answer, Self.lit)["lit"] ?? 0) >= 0.5, "the league's province lit: \(Self.province(answer, Self.lit))")
        // Its neighbour not (but for a few cells on the border, beside Busan's dots).
        #expect((Self.province(answer, Self.besideLit)["lit"] ?? 1) < 0.05, "its neighbour not: \(Self.province(answer, Self.besideLit))")
        #expect((answer["green"] as? NSNumber)?.intValue == 0, "the projector has no school of its own")
        #expect(try projector.string("return JSON.stringify(window.errors)") == "[]")
        // Beside the ranking, whose page still fills the screen without scrolling; the official
        // list says nothing of the starter list's seats.
        #expect(try projector.script("return document.documentElement.scrollHeight") as? Int == 1080)
        #expect(Page.text(projector, "map-legend").hasPrefix("최근 5초에 터치한 학교"))
        #expect(try projector.script("return document.getElementById('map-note').hidden") as? Bool == true)
        let mapBox = try projector.string("const r = document.getElementById('map-canvas').getBoundingClientRect(); return `${r.width}x${r.height}`")
        #expect((answer["cellPixels"] as? NSNumber)?.doubleValue ?? 0 >= 3, "cells of at least 3 px in \(mapBox)")

        // A phone playing for the Seoul school, in English, its ranking shown as the map.
        let phone = try Browser(width: 390, height: 844, touch: true)
        defer { phone.close() }
        let seoul = try #require(schools["서울특별시"])
        try phone.open("\(server.baseURL)/?school=\(seoul)&lang=en")
        try phone.waitFor("the game") { try phone.script("return !document.getElementById('to-board').hidden") as? Bool == true }
        // A tap: the server knows the phone's school from its first batch, and rings it on the map.
        try Page.touch(phone, 1, after: 0)
        _ = try phone.script("document.getElementById('to-board').click()")
        try phone.waitFor("the ranking's map button") { Page.text(phone, "map-toggle") == "Map" }
        _ = try phone.script("document.getElementById('map-toggle').click()")
        try phone.waitFor("the phone's map, glowing") {
            let pixels = try Self.canvasPixels(phone)
            return pixels.drawn > 1_000 && pixels.glowing > 10
        }
        #expect(Page.text(phone, "map-toggle") == "Table")
        #expect(try phone.script("return document.getElementById('board-list').hidden") as? Bool == true, "the map in place of the list")
        let (phoneShot, phoneAnswer) = try Self.readOnceAllGlow(phone)
        try Self.save(phoneShot, as: "map-phone.png")
        Self.expectTheMap(phoneAnswer, "phone")
        #expect(((phoneAnswer["green"] as? NSNumber)?.intValue ?? 0) > 5, "my school ringed: \(phoneAnswer["green"] ?? "none")")
        #expect(Page.text(phone, "map-legend").hasPrefix("Tapped in the last 5 s"))
        // Back to the list: its rows again.
        _ = try phone.script("document.getElementById('map-toggle').click()")
        try phone.waitFor("the list again") { try phone.script("return document.querySelectorAll('#board-rows tr').length") as? Int ?? 0 > 0 }
    }
}
