import Testing
@testable import TouchSchoolServer

/// The kernel's view of a reader, as `WriteProgress` judges it between two looks 15 s apart.
struct SocketProgressTests {
    @Test func aReaderWhoseWindowStaysShutReadsNothingEvenWhenTheKernelTakesAProbe() {
        // Seen on loopback: 60 KB sent into a shut window, of which the reader's kernel took
        // 18 bytes from a window probe between two looks.
        let shut = SocketProgress(owed: 60_000, acknowledged: 1_170_305)
        #expect(SocketProgress(owed: 60_000, acknowledged: 1_170_305).showsNoReading(since: shut))
        #expect(SocketProgress(owed: 59_982, acknowledged: 1_170_323).showsNoReading(since: shut))
    }

    @Test func aSlowReaderWithABacklogReadsWhenItTakesAKilobyte() {
        let behind = SocketProgress(owed: 200_000, acknowledged: 10_000)
        #expect(!SocketProgress(owed: 199_000, acknowledged: 11_024).showsNoReading(since: behind))
        #expect(SocketProgress(owed: 199_001, acknowledged: 11_023).showsNoReading(since: behind))
    }

    @Test func aFewBytesOwedAreReadWhenAllOfThemAreTaken() {
        // A quiet screen: 300 bytes in flight at one look, acknowledged, and new ones at the next.
        let inFlight = SocketProgress(owed: 300, acknowledged: 5_000)
        #expect(!SocketProgress(owed: 300, acknowledged: 5_300).showsNoReading(since: inFlight))
        #expect(SocketProgress(owed: 300, acknowledged: 5_299).showsNoReading(since: inFlight))
    }

    @Test func nothingOwedAtEitherLookIsNoStall() {
        let idle = SocketProgress(owed: 0, acknowledged: 500)
        #expect(!SocketProgress(owed: 0, acknowledged: 500).showsNoReading(since: idle))
        #expect(!SocketProgress(owed: 300, acknowledged: 500).showsNoReading(since: idle))
        #expect(!idle.showsNoReading(since: SocketProgress(owed: 300, acknowledged: 200)))
    }
}
