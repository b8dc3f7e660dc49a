// The bases the real-thread stress suites iterate: a stream fed concurrently, and a wrapper that tells when the
// operator let go of its base.

/// A stream fed from a detached task with `0..<count`, yielding at random between elements, then finished
/// (or left open when `endless`).
func producedStream(_ count: Int, endless: Bool = false) -> AsyncStream<Int> {
  let (stream, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
  Task.detached {
    for element in 0..<count {
      if Int.random(in: 0..<3) == 0 { await Task.yield() }
      input.yield(element)
    }
    if !endless { input.finish() }
  }
  return stream
}

/// A sequence that opens `released` when it and every iterator of it are released: whether its iteration ended by
/// cancellation, because the operator dropped it (a producer stopped while holding an element never asks its base
/// again), or never began (a consumer cancelled before its first `next()` starts nothing), the operator let go.
struct TrackedBase<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Failure == Never {
  typealias Element = Base.Element
  typealias Failure = Never

  let base: Base
  let token: Token

  init(base: Base, released: Latch) {
    self.base = base
    token = Token(released)
  }

  final class Token: Sendable {
    let released: Latch
    init(_ released: Latch) { self.released = released }
    deinit { released.open() }
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let token: Token

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      await base.next(isolation: actor)
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), token: token) }
}
