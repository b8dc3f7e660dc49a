import Synchronization

/// Counts the tasks a model has running, so tests can check that releasing a model ends all of them.
final class ActivityCounter: Sendable {
  private let count = Atomic(0)

  /// The number of tasks running now.
  var running: Int { count.load(ordering: .acquiring) }

  /// Runs `body`, counted as running until it returns.
  func track<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> T) async -> T {
    count.add(1, ordering: .relaxed)
    defer { count.subtract(1, ordering: .releasing) }
    return await body()
  }
}
