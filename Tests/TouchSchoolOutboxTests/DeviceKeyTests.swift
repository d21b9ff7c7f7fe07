#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TouchSchoolCore
@testable import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport

@Suite(.onOwnThreads) struct DeviceKeyTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func aKeyIsMadeOnceWith43Base64URLCharactersAndMode0600() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = "\(directory.path)/data"
        let key = try DeviceKey.loadOrCreate(dataDirectory: data)
        #expect(key.count == 43)
        #expect(key.utf8.count == BattleRules.madeDeviceKeyLength && BattleRules.isValidDeviceKey(key))
        let path = DeviceKey.path(inDataDirectory: data)
        #expect(mode(path) == 0o600)
        #expect(try DeviceKey.loadOrCreate(dataDirectory: data) == key)
        #expect(FileIO.list(data) == ["device.key"])
        let other = TemporaryDirectory()
        defer { other.remove() }
        #expect(try DeviceKey.loadOrCreate(dataDirectory: other.path) != key)
    }

    @Test func aKeyOthersCanReadIsMadePrivate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let key = try DeviceKey.loadOrCreate(dataDirectory: directory.path)
        let path = DeviceKey.path(inDataDirectory: directory.path)
        chmod(path, 0o644)
        #expect(try DeviceKey.loadOrCreate(dataDirectory: directory.path) == key)
        #expect(mode(path) == 0o600)
    }

    @Test func aFileThatIsNotAKeyIsRefusedNotReplaced() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = DeviceKey.path(inDataDirectory: directory.path)
        try FileSystem.live.replaceAtomically(path, with: Array("not a key\n".utf8))
        #expect(throws: DeviceKeyError.self) { try DeviceKey.loadOrCreate(dataDirectory: directory.path) }
        #expect(try FileIO.read(path) == Array("not a key\n".utf8))
    }
}
