import InternalRippleUtilities
import Ripple

/// A base that counts the calls of its iterators' `next()`, to show what an operator asks of it.
struct NextCounting<Base: AsyncSequence>: AsyncSequence {
  typealias Element = Base.Element
  typealias Failure = Base.Failure

  final class Counter: Sendable {
    let count = _Mutex(0)
  }

  let base: Base
  private let counter = Counter()

  init(_ base: Base) {
    self.base = base
  }

  /// How many times `next()` was called, over every iterator.
  var calls: Int { counter.count.withLock { $0 } }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), counter: counter)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let counter: Counter

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      counter.count.withLock { $0 += 1 }
      return try await base.next(isolation: actor)
    }
  }
}

extension NextCounting: Sendable where Base: Sendable {}
