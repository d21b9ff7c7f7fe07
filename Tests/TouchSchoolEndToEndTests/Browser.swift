import Foundation
import Testing
import TouchSchoolTestSupport

/// A page of a real headless Chromium (Debian's `chromium`) for one test, `width` × `height` CSS
/// pixels, as a phone with touch or a desktop, in a language: a window of one of its suite's
/// browsers (`SharedBrowsers`), which the test borrows and `close()` gives back clean. A browser's
/// start is most of what a test of the page costs (its first-run profile, its GPU, network and
/// renderer processes): a suite starts one, or one a language, or one more for each page a test
/// has open at once. The size and the touch screen are set per window through DevTools, as
/// chromedriver's mobile emulation set them for a whole browser; what the page sees (its
/// viewport, screen, pointer and touch media queries, `navigator.maxTouchPoints`, the events of
/// a tap) is what a browser of its own showed it.
final class Browser {
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"
    static var isInstalled: Bool {
        [chromium, driver].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let width: Int
    let height: Int
    /// A phone's touch screen (taps and clicks are touches), or a desktop's mouse.
    let touch: Bool
    private let browser: SharedBrowser
    private let pool: SharedBrowsers.Pool
    /// The origins this page opened, whose storage `close()` clears (a later test's server may
    /// get the same port, and so the same origin).
    private var origins: Set<String> = []
    private var closed = false

    /// A page `width` × `height` CSS pixels, as a phone with touch (`touch`) or a desktop, in
    /// `language` (what `navigator.language` and Accept-Language say), in a browser of the suite's
    /// (`.sharedBrowsers()`) started with Chromium's command-line `flags` besides its own.
    init(width: Int, height: Int, touch: Bool, language: String = "ko-KR", flags: [String] = []) throws {
        guard let pool = SharedBrowsers.current else {
            throw Failure(description: "a Browser needs its suite marked .sharedBrowsers(), which starts and ends the suite's browsers")
        }
        self.width = width
        self.height = height
        self.touch = touch
        self.pool = pool
        browser = try pool.borrow(language: language, flags: flags, width: width, height: height)
        do { try emulateDevice() } catch {
            closed = true
            pool.discard(browser)
            throw error
        }
    }

    deinit { close() }

    /// The browser's profile folder: two pages that name the same one were in the same browser.
    var profile: String { browser.folder }

    /// The current window as this page's device: a phone's viewport, screen and touch screen
    /// (DevTools' `Emulation.setDeviceMetricsOverride`, `mobile`, and `setTouchEmulationEnabled`,
    /// what chromedriver's `mobileEmulation` sends), or a desktop window of this size.
    private func emulateDevice() throws {
        try watchErrors()
        if touch {
            _ = try command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                          "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": true]])
            _ = try command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setTouchEmulationEnabled", "params": ["enabled": true]])
        } else {
            try resize(width: width, height: height)
        }
    }

    /// Every page this window opens keeps the errors it meets in `window.pageErrors`: a script's
    /// exception, a promise nobody caught, a file (a module, a style) that did not load; a
    /// failure's `loading()` shows them.
    private func watchErrors() throws {
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": """
            window.pageErrors = [];
            addEventListener('error', (e) => window.pageErrors.push(e.target !== window && e.target
              ? `no ${e.target.src || e.target.href || e.target.tagName}` : `${e.message} (${e.filename}:${e.lineno})`), true);
            addEventListener('unhandledrejection', (e) => window.pageErrors.push(`rejected: ${e.reason}`));
            """]])
    }

    /// Gives the browser back to the suite with no window of this page left and its origins'
    /// storage (service workers, caches, local storage, IndexedDB, cookies) and HTTP cache cleared,
    /// as a browser of its own would have been thrown away; a browser that cannot be made clean
    /// is ended. Safe to call more than once.
    func close() {
        guard !closed else { return }
        closed = true
        do {
            try browser.clean(origins: origins)
            pool.giveBack(browser)
        } catch {
            pool.discard(browser)
        }
    }

    // MARK: - Commands

    func open(_ url: String) throws {
        if let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host {
            origins.insert("\(scheme)://\(host)\(parts.port.map { ":\($0)" } ?? "")")
        }
        _ = try command("POST", "/url", ["url": url])
    }

    /// Runs `body` (a function body: `return …`) in the page and returns its value.
    @discardableResult
    func script(_ body: String, _ arguments: [Any] = []) throws -> Any? {
        try command("POST", "/execute/sync", ["script": body, "args": arguments])
    }

    func string(_ body: String) throws -> String { (try script(body) as? String) ?? "" }

    /// The element found by a CSS selector (WebDriver's element reference).
    func element(_ selector: String) throws -> [String: Any] {
        guard let value = try command("POST", "/element", ["using": "css selector", "value": selector]) as? [String: Any] else {
            throw Failure(description: "no element \(selector)")
        }
        return value
    }

    private func elementID(_ element: [String: Any]) -> String {
        element.values.first as? String ?? ""
    }

    func type(_ text: String, into selector: String) throws {
        let id = elementID(try element(selector))
        _ = try command("POST", "/element/\(id)/value", ["text": text])
    }

    /// Clicks the element, or on a phone taps it: chromedriver's mobile emulation made a click a
    /// tap (touch events, then the mouse's compatibility events), and so does this, at the
    /// element's center, once it is scrolled into view and nothing covers it there (what
    /// WebDriver's click checks).
    func click(_ selector: String) throws {
        let element = try element(selector)
        guard touch else {
            _ = try command("POST", "/element/\(elementID(element))/click", [:])
            return
        }
        let center = try script("""
            const element = arguments[0];
            element.scrollIntoViewIfNeeded(true);
            const box = element.getBoundingClientRect();
            const x = Math.floor(box.left + box.width / 2), y = Math.floor(box.top + box.height / 2);
            const there = document.elementFromPoint(x, y);
            return box.width > 0 && box.height > 0 && there !== null && element.contains(there) ? [x, y] : null
            """, [element]) as? [Int]
        guard let center, center.count == 2 else {
            throw Failure(description: "\(selector) cannot be tapped: hidden, or covered at its center")
        }
        try touch([(x: center[0], y: center[1])])
    }

    /// Presses keys (WebDriver key codes, e.g. "\u{E00D}" for Space) in the focused element.
    func pressKeys(_ keys: [String]) throws {
        var actions: [[String: Any]] = []
        for key in keys { actions += [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]] }
        _ = try command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// One tap of each finger at once at `points` (viewport coordinates): real touch input, as
    /// several fingers touching the screen together.
    func touch(_ points: [(x: Int, y: Int)], pointerType: String = "touch") throws {
        let sources: [[String: Any]] = points.enumerated().map { index, point in
            ["type": "pointer", "id": "finger\(index + 1)", "parameters": ["pointerType": pointerType],
             "actions": [
                ["type": "pointerMove", "duration": 0, "x": point.x, "y": point.y, "origin": "viewport"],
                ["type": "pointerDown", "button": 0],
                ["type": "pause", "duration": 40],
                ["type": "pointerUp", "button": 0],
             ]]
        }
        _ = try command("POST", "/actions", ["actions": sources])
        _ = try command("DELETE", "/actions", nil)
    }

    /// Opens a new window of this browser (the same profile: the same storage and the same Web
    /// Locks, as a second tab of a player's browser), the same device as this page, and returns
    /// its handle. Commands still go to the current window until `switchTo(window:)`.
    func newWindow() throws -> String {
        let current = try currentWindow()
        let handle = try browser.newWindow()
        try switchTo(window: handle)
        try emulateDevice()
        try switchTo(window: current)
        return handle
    }

    /// The handle of the window commands go to.
    func currentWindow() throws -> String {
        guard let handle = try command("GET", "/window", nil) as? String else { throw Failure(description: "no current window") }
        return handle
    }

    /// Sends the next commands to the window `handle`.
    func switchTo(window handle: String) throws {
        _ = try command("POST", "/window", ["handle": handle])
    }

    /// The handles of the windows open, those a page opened included.
    func windows() throws -> [String] {
        guard let handles = try command("GET", "/window/handles", nil) as? [String] else { throw Failure(description: "no window handles") }
        return handles
    }

    /// Closes the current window as a player closes a tab (its page's `pagehide` runs); the next
    /// commands need `switchTo(window:)`.
    func closeWindow() throws {
        _ = try command("DELETE", "/window", nil)
    }

    /// Crashes the renderer of the current window's page (DevTools' `Page.crash`): the page ends
    /// with no `pagehide`, as when its process dies. The driver answers "tab crashed".
    func crashPage() {
        _ = try? command("POST", "/goog/cdp/execute", ["cmd": "Page.crash", "params": [String: Any]()])
    }

    /// Runs `source` in every document this window opens from now on, before the page's own
    /// scripts (DevTools' `Page.addScriptToEvaluateOnNewDocument`): what the page will call can
    /// be watched from its first moment.
    func runBeforeEveryPage(_ source: String) throws {
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": source]])
    }

    /// Why Chromium would not offer to install the page as an app (DevTools'
    /// `Page.getInstallabilityErrors`): each error's id; empty when it is installable.
    func installabilityErrors() throws -> [String] {
        let answer = try command("POST", "/goog/cdp/execute", ["cmd": "Page.getInstallabilityErrors", "params": [String: Any]()]) as? [String: Any]
        let errors = answer?["installabilityErrors"] as? [[String: Any]] ?? []
        return errors.map { ($0["errorId"] as? String) ?? "\($0)" }
    }

    /// Makes the page exactly `width` × `height` CSS pixels, as a screen with no browser around
    /// it (a projector's full screen; DevTools' `Emulation.setDeviceMetricsOverride`).
    func fillScreen(width: Int, height: Int) throws {
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride",
                                                      "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false]])
    }

    /// A touch screen of `points` fingers on this browser as it is (DevTools'
    /// `Emulation.setTouchEmulationEnabled`), for the pages opened from now on: unlike `touch`'s
    /// phone, its pointer stays what the browser's flags say.
    func emulateTouchScreen(points: Int) throws {
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setTouchEmulationEnabled", "params": ["enabled": true, "maxTouchPoints": points]])
    }

    /// Moves the mouse to `x`, `y` (viewport coordinates) without pressing anything.
    func movePointer(x: Int, y: Int) throws {
        let source: [String: Any] = ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"],
                                     "actions": [["type": "pointerMove", "duration": 100, "x": x, "y": y, "origin": "viewport"]]]
        _ = try command("POST", "/actions", ["actions": [source]])
        _ = try command("DELETE", "/actions", nil)
    }

    func resize(width: Int, height: Int) throws {
        _ = try command("POST", "/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the page as shown.
    func screenshot() throws -> Data {
        guard let text = try command("GET", "/screenshot", nil) as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }

    /// Polls `condition` every 50 ms until it holds; fails with `describe()` of the last state.
    func waitFor(_ what: String, timeout: Double = 20, _ condition: () throws -> Bool) throws {
        guard !Wait.untilBlocking(timeout: timeout, condition) else { return }
        let text = (try? string("return document.body.innerText")) ?? "?"
        throw Failure(description: "timed out after \(timeout)s waiting for \(what); the page says:\n\(text)\n\(loading())")
    }

    /// How the page loaded, for a failure: its address, whether its script ran to the end
    /// (`body.dataset.ready`), the errors it met (`watchErrors`), and every file it asked for with
    /// Chromium's HTTP status (0: none came) and time, so that a page left as its bare HTML says
    /// which file or script stopped it.
    func loading() -> String {
        (try? string("""
            const files = performance.getEntriesByType('resource')
              .map((e) => `${new URL(e.name).pathname} ${e.responseStatus ?? '?'} ${Math.round(e.startTime)}+${Math.round(e.duration)} ms`);
            return `page ${location.href} (${document.readyState}, script done: ${document.body?.dataset.ready ?? 'no'})\n` +
              `errors: ${JSON.stringify(window.pageErrors ?? 'not watched')}\nfiles: ${files.join('; ')}`;
            """)) ?? "(the page could not be read)"
    }

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) throws -> Any? {
        try browser.command(method, path, body)
    }
}

/// One headless Chromium driven through Debian's `chromedriver` with the W3C WebDriver HTTP API
/// (each request over a socket of the test's own, `LoopbackHTTP`), lent to a suite's tests one
/// page at a time (`Browser`). The driver leads a process group of its own and the browser's
/// profile lives in a scratch folder: `close()` ends the group and any process still naming the
/// folder, so no browser outlives its suite, passing or failing.
final class SharedBrowser: @unchecked Sendable {
    /// What `navigator.language` says in it (Chromium's `--lang`, its Accept-Language), which
    /// DevTools cannot change for a window as a browser of its own had it.
    let language: String
    /// Chromium's command-line flags besides this class's own.
    let flags: [String]
    /// The scratch folder: the browser's profile, the driver's log, Chromium's temporary files.
    let folder: String
    private var driverPID: pid_t = 0
    /// Where chromedriver listens on 127.0.0.1 (0: not yet known).
    private var driverPort = 0
    private var session = ""
    private var closed = false

    /// A browser in `language`, its first window `width` × `height` (the size of the windows its
    /// pages open themselves), started with Chromium's command-line `flags` besides this class's own.
    init(language: String, width: Int, height: Int, flags: [String]) throws {
        self.language = language
        self.flags = flags
        folder = TemporaryDirectory().path
        do { try start(width: width, height: height) } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func start(width: Int, height: Int) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LANGUAGE"] = language.replacingOccurrences(of: "-", with: "_")
        // Chromium's own temporary folders (its singleton socket, scoped folders) in the scratch
        // folder too: a browser ended by a signal leaves them behind, and /tmp kept hundreds.
        let temporary = "\(folder)/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary
        // A chromedriver that never says where it listens (seen once, on a machine running the
        // whole suite) is ended and started once more: the driver is the test's tool, not what
        // it tests.
        for attempt in 1...2 {
            switch Subprocess.start(Browser.driver, ["--port=0", "--log-path=\(folder)/driver.log"], environment: environment,
                                    outputPath: "\(folder)/driver.out", errorPath: "\(folder)/driver.err", ownProcessGroup: true) {
            case let .success(pid): driverPID = pid
            case let .failure(failure): throw Browser.Failure(description: failure.description)
            }
            _ = Wait.untilBlocking(timeout: 30) {
                let text = (try? String(contentsOfFile: "\(folder)/driver.out", encoding: .utf8)) ?? ""
                if let range = text.range(of: "started successfully on port ") {
                    let digits = text[range.upperBound...].prefix(while: \.isNumber)
                    if let port = Int(digits) { driverPort = port }
                }
                return driverPort != 0
            }
            guard driverPort == 0 else { break }
            let said = ["driver.out", "driver.err"].map { (try? String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8)) ?? "" }
            kill(-driverPID, SIGKILL)
            var status: Int32 = 0
            waitpid(driverPID, &status, 0)
            driverPID = 0
            if attempt == 2 { throw Browser.Failure(description: "chromedriver did not start within 30 s, twice: \(said.joined(separator: " / "))") }
        }
        let options: [String: Any] = [
            "binary": Browser.chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--user-data-dir=\(folder)/profile", "--lang=\(language)", "--window-size=\(width),\(height)",
                     "--hide-scrollbars", "--force-device-scale-factor=1"] + flags,
            "prefs": ["intl": ["accept_languages": language]],
        ]
        let answer = try request("POST", "/session", ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]],
                                 timeout: 60)
        guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
            throw Browser.Failure(description: "no WebDriver session: \(String(describing: answer))")
        }
        session = id
    }

    /// Ends the session, the driver's process group and any process still using the profile;
    /// waits until they are gone. Safe to call more than once.
    func close() {
        guard !closed else { return }
        closed = true
        if !session.isEmpty { _ = try? request("DELETE", "/session/\(session)", nil, timeout: 10) }
        if driverPID > 0 {
            kill(-driverPID, SIGTERM)
            // The driver reaped as soon as it ends: until then it is a zombie, which still counts
            // as its group's member (seen: every close waited the whole 5 s).
            var status: Int32 = 0
            var reaped = false
            _ = Wait.untilBlocking(timeout: 5) {
                if !reaped { reaped = waitpid(driverPID, &status, WNOHANG) == driverPID }
                return reaped && !Self.groupIsAlive(driverPID)
            }
            kill(-driverPID, SIGKILL)
            if !reaped { waitpid(driverPID, &status, 0) }
        }
        for pid in processesUsingFolder() { kill(pid, SIGKILL) }
        _ = Wait.untilBlocking(timeout: 5) { processesUsingFolder().isEmpty }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func groupIsAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 }

    /// Live processes whose command line names the scratch folder (the browser and its helpers).
    func processesUsingFolder() -> [pid_t] { Self.processesUsing(folder: folder) }

    /// Live processes whose command line names `folder`.
    static func processesUsing(folder: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid(), let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: bytes, as: UTF8.self).contains(folder) && TmuxSession.isRunning(pid)
        }
    }

    /// A new window (WebDriver's: in the browser's one profile), its handle.
    func newWindow() throws -> String {
        guard let value = try command("POST", "/window/new", ["type": "window"]) as? [String: Any],
              let handle = value["handle"] as? String else {
            throw Browser.Failure(description: "no new window")
        }
        return handle
    }

    /// Makes the browser as a new one to the next page: one new blank window, in front (focused,
    /// as a browser's first window is), with no DevTools override and no script of a page before
    /// it; every other window closed (their pages unload); the storage of `origins` and the HTTP
    /// cache cleared.
    func clean(origins: Set<String>) throws {
        let old = try command("GET", "/window/handles", nil) as? [String] ?? []
        let blank = try newWindow()
        for handle in old {
            _ = try command("POST", "/window", ["handle": handle])
            _ = try command("DELETE", "/window", nil)
        }
        _ = try command("POST", "/window", ["handle": blank])
        for origin in origins.sorted() {
            _ = try command("POST", "/goog/cdp/execute", ["cmd": "Storage.clearDataForOrigin", "params": ["origin": origin, "storageTypes": "all"]])
        }
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Network.clearBrowserCache", "params": [String: Any]()])
        _ = try command("POST", "/goog/cdp/execute", ["cmd": "Page.bringToFront", "params": [String: Any]()])
    }

    // MARK: - WebDriver over HTTP

    func command(_ method: String, _ path: String, _ body: [String: Any]?) throws -> Any? {
        try request(method, "/session/\(session)\(path)", body, timeout: 60)
    }

    /// One WebDriver request; its `value`, or a failure with WebDriver's error.
    private func request(_ method: String, _ path: String, _ body: [String: Any]?, timeout: Int) throws -> Any? {
        let answer: LoopbackHTTP.Response
        do {
            answer = try LoopbackHTTP.request(method, port: driverPort, path: path, body: try body.map { try JSONSerialization.data(withJSONObject: $0) },
                                              timeout: Double(timeout))
        } catch {
            throw Browser.Failure(description: "\(error)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: answer.body, options: [.fragmentsAllowed]) as? [String: Any] else {
            throw Browser.Failure(description: "\(method) \(path): not JSON (\(answer.status)): \(answer.text.prefix(500))")
        }
        let value = object["value"]
        if let error = value as? [String: Any], let kind = error["error"] as? String {
            throw Browser.Failure(description: "\(method) \(path): \(kind): \(error["message"] as? String ?? "")")
        }
        return value is NSNull ? nil : value
    }
}

/// A suite's browsers (`SharedBrowser`), started as its tests first need them and all ended when
/// the suite ends, passing or failing: a test's `Browser` borrows an idle one in its language and
/// with its flags, or starts one more (a test with two pages open at once has two, each its own
/// profile, as two devices). Swift Testing has no teardown of a suite's statics; this trait
/// scopes the suite. The browser suites are `.serialized`: one test at a time borrows.
struct SharedBrowsers: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    @TaskLocal static var current: Pool?

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase == nil, test.isSuite else { return try await function() }
        let pool = Pool()
        defer {
            let left = pool.closeAll()
            if !left.isEmpty { Issue.record("browser processes outlived the suite and were killed: \(left)") }
        }
        try await Self.$current.withValue(pool) { try await function() }
    }

    final class Pool: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [SharedBrowser] = []
        private var started: [SharedBrowser] = []

        /// An idle browser in `language` started with `flags`, or a new one.
        func borrow(language: String, flags: [String], width: Int, height: Int) throws -> SharedBrowser {
            let lent: SharedBrowser? = lock.withLock {
                guard let index = idle.firstIndex(where: { $0.language == language && $0.flags == flags }) else { return nil }
                return idle.remove(at: index)
            }
            if let lent { return lent }
            let browser = try SharedBrowser(language: language, width: width, height: height, flags: flags)
            lock.withLock { started.append(browser) }
            return browser
        }

        func giveBack(_ browser: SharedBrowser) { lock.withLock { idle.append(browser) } }

        /// Ends a browser that could not be made clean for the next test.
        func discard(_ browser: SharedBrowser) { browser.close() }

        /// Ends every browser, side by side (each waits for its processes to end); the processes
        /// that still named a browser's folder after its close, none when all ended as they should.
        func closeAll() -> [pid_t] {
            let all = lock.withLock { () -> [SharedBrowser] in
                defer { started = []; idle = [] }
                return started
            }
            DispatchQueue.concurrentPerform(iterations: all.count) { all[$0].close() }
            return all.flatMap { SharedBrowser.processesUsing(folder: $0.folder) }
        }
    }
}

extension Trait where Self == SharedBrowsers {
    /// The suite's tests borrow its browsers, which end with it (`SharedBrowsers`).
    static func sharedBrowsers() -> Self { SharedBrowsers() }
}
