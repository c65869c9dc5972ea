import FetchHistoryTesting
import Testing

/// SplitMix64 gives the reference algorithm's numbers, so a seed printed on
/// one machine repeats the run on any other.
@Suite struct SplitMix64Tests {
    @Test func aSeedGivesTheReferenceNumbers() {
        // Given the generator seeded with 0
        var generator = SplitMix64(seed: 0)

        // When it is asked for three numbers
        let numbers = [generator.next(), generator.next(), generator.next()]

        // Then they are those of the reference splitmix64.c for seed 0
        #expect(numbers == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }
}
