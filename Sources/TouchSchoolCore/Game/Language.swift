/// The language the UI speaks.
public enum Language: String, CaseIterable, Sendable {
    case korean = "ko"
    case english = "en"

    /// Korean when the locale says so (`LC_ALL`, then `LC_MESSAGES`, then `LANG`), else English.
    public static func fromLocale(environment: [String: String]) -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                return value.lowercased().hasPrefix("ko") ? .korean : .english
            }
        }
        return .english
    }
}
