/// `flatMapLatest`'s policy: for each element, make its inner sequence on the transform's isolation, then hand over
/// the inner's elements, each once the one before is no longer held for the consumer. A transform that throws ends
/// the iteration as an inner's error does. (The public entry points take synchronous, non-throwing transforms, but
/// for AsyncExtensions' overload whose transform is `async throws`.)
@usableFromInline
struct _FlatMapLatestPolicy<Input: Sendable, Inner: AsyncSequence & Sendable, Failure: Error>: _LatestPolicy
where Inner.Element: Sendable {
  @usableFromInline typealias Output = Inner.Element

  @usableFromInline let transform: @isolated(any) @Sendable (Input) async throws(Failure) -> Inner
  @usableFromInline let convertFailure: @Sendable (Inner.Failure) -> Failure

  @inlinable
  init(
    transform: @escaping @isolated(any) @Sendable (Input) async throws(Failure) -> Inner,
    convertFailure: @escaping @Sendable (Inner.Failure) -> Failure
  ) {
    self.transform = transform
    self.convertFailure = convertFailure
  }

  @inlinable
  func run(_ input: Input, generation: UInt64, into outputs: some _LatestOutputs<Output, Failure>) async {
    let inner: Inner
    do throws(Failure) {
      inner = try await transform(input)
    } catch {
      outputs.innerFailed(error, generation: generation)
      return
    }
    var iterator = inner.makeAsyncIterator()
    do throws(Inner.Failure) {
      // Off any actor, as the base is iterated: the transform's isolation only makes the sequence.
      while let element = try await iterator.next(isolation: nil) {
        guard await outputs.produce(element, generation: generation) else { return }
      }
      outputs.innerFinished(generation: generation)
    } catch {
      outputs.innerFailed(convertFailure(error), generation: generation)
    }
  }
}
