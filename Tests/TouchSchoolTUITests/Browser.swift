import Foundation
import TouchSchoolTestSupport

/// A real headless Chromium (Debian's `chromium`), driven through Debian's `chromedriver` with the
/// W3C WebDriver HTTP API (each request over a socket of the test's own, `LoopbackHTTP`). The driver
/// leads a process group of its own and the browser's profile lives in a scratch folder: `close()` ends the group and any process
/// still naming the folder, so no browser outlives a test, passing or failing.
final class Browser {
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"
    static var isInstalled: Bool {
        [chromium, driver].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The scratch folder: the browser's profile, the driver's log.
    let folder: String
    private var driverPID: pid_t = 0
    /// Where chromedriver listens on 127.0.0.1 (0: not yet known).
    private var driverPort = 0
    private var session = ""
    private var closed = false

    /// A browser whose page is `width` × `height` CSS pixels, as a phone with touch
    /// (`touch`) or a desktop, in `language` (what `navigator.language` says), started with
    /// Chromium's command-line `flags` besides this class's own.
    init(width: Int, height: Int, touch: Bool, language: String = "ko-KR", flags: [String] = []) throws {
        folder = TemporaryDirectory().path
        do { try start(width: width, height: height, touch: touch, language: language, flags: flags) } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func start(width: Int, height: Int, touch: Bool, language: String, flags: [String]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LANGUAGE"] = language.replacingOccurrences(of: "-", with: "_")
        // A chromedriver that never says where it listens (seen once, on a machine running the
        // whole suite) is ended and started once more: the driver is the test's tool, not what
        // it tests.
        for attempt in 1...2 {
            switch Subprocess.start(Self.driver, ["--port=0", "--log-path=\(folder)/driver.log"], environment: environment,
                                    outputPath: "\(folder)/driver.out", errorPath: "\(folder)/driver.err", ownProcessGroup: true) {
            case let .success(pid): driverPID = pid
            case let .failure(failure): throw Failure(description: failure.description)
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
            if attempt == 2 { throw Failure(description: "chromedriver did not start within 30 s, twice: \(said.joined(separator: " / "))") }
        }
        var options: [String: Any] = [
            "binary": Self.chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--user-data-dir=\(folder)/profile", "--lang=\(language)", "--window-size=\(width),\(height)",
                     "--hide-scrollbars", "--force-device-scale-factor=1"] + flags,
            "prefs": ["intl": ["accept_languages": language]],
        ]
        if touch {
            options["mobileEmulation"] = ["deviceMetrics": ["width": width, "height": height, "pixelRatio": 1, "touch": true, "mobile": true]]
        }
        let answer = try request("POST", "/session", ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]],
                                 timeout: 60)
        guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
            throw Failure(description: "no WebDriver session: \(String(describing: answer))")
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
            _ = Wait.untilBlocking(timeout: 5) { !Self.groupIsAlive(driverPID) }
            kill(-driverPID, SIGKILL)
            var status: Int32 = 0
            waitpid(driverPID, &status, 0)
        }
        for pid in processesUsingFolder() { kill(pid, SIGKILL) }
        _ = Wait.untilBlocking(timeout: 5) { processesUsingFolder().isEmpty }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func groupIsAlive(_ group: pid_t) -> Bool { kill(-group, 0) == 0 }

    /// Live processes whose command line names the scratch folder (the browser and its helpers).
    func processesUsingFolder() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard pid != getpid(), let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: bytes, as: UTF8.self).contains(folder) && TmuxSession.isRunning(pid)
        }
    }

    // MARK: - Commands

    func open(_ url: String) throws { _ = try command("POST", "/url", ["url": url]) }

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

    func click(_ selector: String) throws {
        let id = elementID(try element(selector))
        _ = try command("POST", "/element/\(id)/click", [:])
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
    /// Locks, as a second tab of a player's browser) and returns its handle. Commands still go to
    /// the current window until `switchTo(window:)`.
    func newWindow() throws -> String {
        guard let value = try command("POST", "/window/new", ["type": "window"]) as? [String: Any],
              let handle = value["handle"] as? String else {
            throw Failure(description: "no new window")
        }
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
        throw Failure(description: "timed out after \(timeout)s waiting for \(what); the page says:\n\(text)")
    }

    // MARK: - WebDriver over HTTP

    private func command(_ method: String, _ path: String, _ body: [String: Any]?) throws -> Any? {
        try request(method, "/session/\(session)\(path)", body, timeout: 60)
    }

    /// One WebDriver request; its `value`, or a failure with WebDriver's error.
    private func request(_ method: String, _ path: String, _ body: [String: Any]?, timeout: Int) throws -> Any? {
        let answer: LoopbackHTTP.Response
        do {
            answer = try LoopbackHTTP.request(method, port: driverPort, path: path, body: try body.map { try JSONSerialization.data(withJSONObject: $0) },
                                              timeout: Double(timeout))
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: answer.body, options: [.fragmentsAllowed]) as? [String: Any] else {
            throw Failure(description: "\(method) \(path): not JSON (\(answer.status)): \(answer.text.prefix(500))")
        }
        let value = object["value"]
        if let error = value as? [String: Any], let kind = error["error"] as? String {
            throw Failure(description: "\(method) \(path): \(kind): \(error["message"] as? String ?? "")")
        }
        return value is NSNull ? nil : value
    }
}
