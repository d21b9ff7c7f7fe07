import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

// Option values as types: each parses itself and names its values for help and completion, and a
// bad value is refused before the command runs, in ArgumentParser's one style ("The value 'x' is
// invalid for '--level <level>'. Please provide one of …", else the option's help, which states
// the rule).

/// `--lang ko|en`, in any case.
extension Language: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--level`: `초`, `중`, `고`, or any name `SchoolLevel(userInput:)` knows (`high`, `고등학교`…).
extension SchoolLevel: ExpressibleByArgument {
    public init?(argument: String) { self.init(userInput: argument) }
    public static var allValueStrings: [String] { ["초", "중", "고"] }
}

/// `--season week|month|none`, in any case.
extension SeasonLength: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// `--region`: a province (시도) by any of its names, kept as the official list names it.
struct ProvinceArgument: ExpressibleByArgument {
    let name: String

    init?(argument: String) {
        guard let name = Province.canonical(argument) else { return nil }
        self.name = name
    }

    static var allValueStrings: [String] { Province.shortNames }
}

/// `--top`, `--limit`: a whole number of at least 1.
struct PositiveCount: ExpressibleByArgument {
    let value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = Int(argument), value > 0 else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { String(value) }
}

/// `--level` and `--region`, which `search` and `rank` share.
struct SchoolFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp(CommandText.levelHelp, valueName: "level"))
    var level: SchoolLevel?

    @Option(help: ArgumentHelp(CommandText.regionHelp, valueName: "region"))
    var region: ProvinceArgument?

    var province: String? { region?.name }

    /// The league the filters name: the whole country when neither is given.
    var league: League {
        switch (level, province) {
        case (nil, nil): .national
        case let (level?, nil): .level(level)
        case let (nil, province?): .province(province)
        case let (level?, province?): .levelInProvince(level, province)
        }
    }
}
