import Logging
import ServiceLifecycle
import TouchSchoolCore
import TouchSchoolServer

/// `serve --ssh-port`: the game served over SSH on `host`:`port` (0: any free port), beside the
/// HTTP server and in the same battle, with the host key kept in `dataDirectory`. `onListening`
/// gets the port listened on and the host key's fingerprint. What goes wrong with the key is said
/// in `language`, the teacher's (`serve`'s locale).
package struct SSHEntrance: PlayEntrance {
    let host: String
    let port: Int
    let policy: SSHPolicy
    let dataDirectory: String
    let language: Language
    let onListening: @Sendable (Int, String) -> Void

    package init(host: String, port: Int, policy: SSHPolicy, dataDirectory: String, language: Language,
                 onListening: @escaping @Sendable (Int, String) -> Void) {
        self.host = host
        self.port = port
        self.policy = policy
        self.dataDirectory = dataDirectory
        self.language = language
        self.onListening = onListening
    }

    package func service(battle: BattleHallRuntime, limits: AddressLimits, metrics: ServerMetrics, logger: Logger) throws -> any Service {
        let hostKey = try SSHHostKey.loadOrCreate(dataDirectory: dataDirectory, text: SSHText(language: language))
        let onListening = onListening
        return SSHServer(host: host, port: port, policy: policy, battle: battle, hostKey: hostKey, limits: limits, metrics: metrics,
                         logger: logger) { port in onListening(port, hostKey.fingerprint) }
    }
}
