/// `mapLatest`'s work for one element: the transform, whose one result is the element's only output.
@usableFromInline
struct _MapLatestWork<Input: Sendable, Output: Sendable, Failure: Error>: _LatestWork {
  @usableFromInline let transform: @isolated(any) @Sendable (Input) async throws(Failure) -> Output

  @inlinable
  init(transform: @escaping @isolated(any) @Sendable (Input) async throws(Failure) -> Output) {
    self.transform = transform
  }

  @inlinable
  func run(_ input: Input, generation: UInt64, reporting reports: some _LatestReports<Output, Failure>) async {
    do throws(Failure) {
      reports.produceLast(try await transform(input), generation: generation)
    } catch {
      reports.innerFailed(error, generation: generation)
    }
  }
}
