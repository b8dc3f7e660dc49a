/// A small, fast, seeded random number generator, so randomized tests replay exactly.
///
/// Use it to generate scripts for property and stress tests: the same seed gives the same sequence on every
/// platform and run, so a failure names a seed you can replay.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let gaps = (0..<3).map { _ in Int.random(in: 0...9, using: &generator) }
/// print(gaps)  // the same three numbers on every run
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D4_9BB3_1331_11EB
    return z ^ (z >> 31)
  }
}
