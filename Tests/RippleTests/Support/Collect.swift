/// Every element of `sequence`, in order; throws what it throws, so a non-throwing sequence needs no `try`.
func collect<S: AsyncSequence>(_ sequence: S) async throws(S.Failure) -> [S.Element] {
  var elements: [S.Element] = []
  var iterator = sequence.makeAsyncIterator()
  while let element = try await iterator.next(isolation: nil) { elements.append(element) }
  return elements
}
