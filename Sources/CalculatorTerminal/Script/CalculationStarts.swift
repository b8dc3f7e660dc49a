import Calculator
import Ripple

/// Records each calculation the model starts — its input, and how many sleeps the clock had started just
/// before — so a driver can wait for the sleep of one particular calculation.
///
/// When one edit makes the pipeline calculate two pairs in a row (the first soon cancelled), both sleep until
/// the same instant; only the second one's sleep, started after its own mark, is the one to wait for.
final class CalculationStarts: Sendable {
  private struct Start {
    var input: Input
    var sleepsBefore: Int
  }

  private struct State {
    /// The number of starts before `starts[0]`: those before the newest mark are dropped, so a long run keeps
    /// only the calculations of its current reaction.
    var base = 0
    var starts: [Start] = []
    var waiters: [(input: Input, from: Int, continuation: UnsafeContinuation<Int, Never>)] = []
  }

  private let state = _Mutex(State())

  /// How many calculations have started, as the index to wait from; forgets the starts before it.
  ///
  /// A driver reacts to one thing at a time, so it only ever waits from its newest mark: starts before it can
  /// go, which keeps memory flat over a million-event soak.
  func mark() -> Int {
    state.withLock { state in
      state.base += state.starts.count
      state.starts.removeAll(keepingCapacity: true)
      return state.base
    }
  }

  /// `calculator`, recording each calculation as it starts; `sleepsStarted` reads the clock's mark.
  func recording(_ calculator: SlowCalculator, sleepsStarted: @escaping @Sendable () -> Int) -> SlowCalculator {
    SlowCalculator { [self] input in
      record(input, sleepsBefore: sleepsStarted())
      return try await calculator.result(for: input)
    }
  }

  /// Suspends until a calculation of `input` has started, counting from the `from`-th start (the newest
  /// ``mark()``); returns the clock's sleep count just before it started.
  func wait(for input: Input, from index: Int) async -> Int {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Int, Never>) in
      let found = state.withLock { state -> Int? in
        precondition(index >= state.base, "waiting from \(index), before the newest mark \(state.base)")
        if let start = state.starts.dropFirst(index - state.base).first(where: { $0.input == input }) {
          return start.sleepsBefore
        }
        state.waiters.append((input, index, continuation))
        return nil
      }
      if let found { continuation.resume(returning: found) }
    }
  }

  private func record(_ input: Input, sleepsBefore: Int) {
    let due = state.withLock { state in
      state.starts.append(Start(input: input, sleepsBefore: sleepsBefore))
      let index = state.base + state.starts.count - 1
      let matches = { (waiter: (input: Input, from: Int, continuation: UnsafeContinuation<Int, Never>)) in
        waiter.input == input && waiter.from <= index
      }
      defer { state.waiters.removeAll(where: matches) }
      return state.waiters.filter(matches).map(\.continuation)
    }
    for waiter in due { waiter.resume(returning: sleepsBefore) }
  }
}
