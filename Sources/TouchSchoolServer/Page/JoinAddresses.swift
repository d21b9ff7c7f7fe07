import TouchSchoolProtocol

/// `GET /v1/join`: the page's addresses students can reach, for the projector opened where they
/// cannot (`http://localhost:P/?board` on the teacher's own machine): the hosts `serve` prints
/// (`LANAddresses`), on the port the request came in on, best first. Read at each request: a
/// laptop that joins the school's network after the start has its new address on the screen.
struct JoinAddresses: Sendable {
    static let path = "/v1/join"
    /// The hosts of the server (`LANAddresses.hosts` of the interfaces as they are now).
    let hosts: @Sendable () -> [String]

    /// `{"addresses": ["http://192.168.0.10:8080/", …]}`: the page's address on each host.
    func answer(port: Int) -> String {
        let addresses = hosts().map { "\"" + ServerAddress(secure: false, host: $0, port: port).httpBase + "/\"" }
        return #"{"addresses":["# + addresses.joined(separator: ",") + "]}"
    }
}
