/// `mapLatest`'s policy: for each element, the transform, whose one result is the element's only output.
@usableFromInline
struct _MapLatestPolicy<Input: Sendable, Output: Sendable, Failure: Error>: _LatestPolicy {
  @usableFromInline let transform: @isolated(any) @Sendable (Input) async throws(Failure) -> Output

  @inlinable
  init(transform: @escaping @isolated(any) @Sendable (Input) async throws(Failure) -> Output) {
    self.transform = transform
  }

  @inlinable
  func run(_ input: Input, generation: UInt64, into outputs: some _LatestOutputs<Output, Failure>) async {
    do throws(Failure) {
      outputs.produceLast(try await transform(input), generation: generation)
    } catch {
      outputs.innerFailed(error, generation: generation)
    }
  }
}
