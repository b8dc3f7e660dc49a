import Testing

@testable import Ripple

@Suite("compacted")
struct CompactedTests {
  @Test(
    "delivers the non-nil elements, unwrapped, in order",
    arguments: [
      ([], []),
      ([nil, nil], []),
      ([1, nil, 2, nil, nil, 3], [1, 2, 3]),
      ([nil, 4, 4, nil], [4, 4]),
    ] as [([Int?], [Int])])
  func unwraps(input: [Int?], expected: [Int]) async {
    var output: [Int] = []
    for await value in finiteStream(input).compacted() {
      output.append(value)
    }
    #expect(output == expected)
  }

  @Test("rethrows the base's error after the elements before it")
  func baseError() async {
    var output: [Int] = []
    do {
      for try await value in failingStream([1, nil, 2] as [Int?]).compacted() {
        output.append(value)
      }
      Issue.record("expected the base's error")
    } catch {
      #expect(error as? Boom == .boom)
    }
    #expect(output == [1, 2])
  }

  @Test("composes with removeDuplicates on a non-throwing base without try")
  func chain() async {
    var output: [Int] = []
    for await value in finiteStream([nil, 1, 1, nil, 1, 2, nil] as [Int?]).compacted().removeDuplicates() {
      output.append(value)
    }
    #expect(output == [1, 2])
  }
}
