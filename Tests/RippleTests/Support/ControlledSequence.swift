/// A base sequence the test drives element by element, which reports how each iteration of it ended.
///
/// The test sends elements, a finish or an error; the operator under test iterates it in a task of its
/// own. When that iteration ends — the iterator is dropped — the sequence reports whether the iterating
/// task was cancelled, so a test can wait for "this base was cancelled" instead of sleeping.
struct ControlledSequence<Element: Sendable>: AsyncSequence, Sendable {
  typealias Failure = Boom

  private let stream: AsyncThrowingStream<Element, any Error>
  private let input: AsyncThrowingStream<Element, any Error>.Continuation
  private let endings: AsyncStream<Bool>
  private let ended: AsyncStream<Bool>.Continuation

  init() {
    (stream, input) = AsyncThrowingStream.makeStream(of: Element.self)
    (endings, ended) = AsyncStream.makeStream(of: Bool.self)
  }

  /// Makes `element` the next element (buffered until the iteration asks for it).
  func send(_ element: Element) {
    input.yield(element)
  }

  /// Ends the sequence after the elements sent so far.
  func finish() {
    input.finish()
  }

  /// Makes the iteration throw ``Boom/boom`` after the elements sent so far.
  func fail() {
    input.finish(throwing: Boom.boom)
  }

  /// Waits until an iteration of this sequence has ended; `true` if its task was cancelled by then.
  func ending() async -> Bool {
    var iterator = endings.makeAsyncIterator()
    return await iterator.next() ?? false
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: stream.makeAsyncIterator(), probe: EndingProbe(ended: ended))
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Element, any Error>.Iterator
    let probe: EndingProbe

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Boom) -> Element? {
      do {
        return try await base.next(isolation: actor)
      } catch {
        throw .boom
      }
    }
  }

  /// Reports, when the iterator holding it goes away, whether the task that held it was cancelled.
  final class EndingProbe: Sendable {
    let ended: AsyncStream<Bool>.Continuation

    init(ended: AsyncStream<Bool>.Continuation) {
      self.ended = ended
    }

    deinit {
      ended.yield(Task.isCancelled)
    }
  }
}

/// A finished stream of `elements`, for operators over finite inputs.
func finiteStream<Element: Sendable>(_ elements: [Element]) -> AsyncStream<Element> {
  let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
  for element in elements {
    continuation.yield(element)
  }
  continuation.finish()
  return stream
}

/// A stream of `elements` that then throws ``Boom/boom``.
func failingStream<Element: Sendable>(_ elements: [Element]) -> AsyncThrowingStream<Element, any Error> {
  let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
  for element in elements {
    continuation.yield(element)
  }
  continuation.finish(throwing: Boom.boom)
  return stream
}
