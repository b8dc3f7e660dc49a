extension AsyncSequence {
  /// Writes every element into a property of an object — typically an `@Observable` model — without keeping
  /// the object alive.
  ///
  /// It is Combine's `assign(to:on:)` for async sequences, with one difference that matters in apps: Combine's
  /// version retains the object, so a pipeline that assigns into the model that owns it leaks the model. This
  /// one holds the object weakly and returns once the object is gone.
  ///
  /// ```swift
  /// @MainActor @Observable final class Form {
  ///   var a = 0
  ///   var b = 0
  ///   var sum = 0
  /// }
  ///
  /// let form = Form()
  /// Task { @MainActor [weak form] in
  ///   let sums = Observed<Int, Never>.untilFinished { [weak form] in
  ///     guard let form else { return .finish }
  ///     return .next(form.a + form.b)
  ///   }
  ///   await sums.assign(to: \.sum, on: form)
  /// }
  /// form.a = 1   // form.sum becomes 1
  /// ```
  ///
  /// The assignments run on the caller's isolation, so a main-actor model is written on the main actor.
  ///
  /// See <doc:Assign> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// ## Finishing, throwing, cancellation
  /// Returns when the sequence finishes, when the consuming task is cancelled (as the sequence reacts to it), or
  /// when the next element arrives and the object has been deallocated. To end the moment the object goes away,
  /// iterate a sequence that itself ends then, as the `Observed.untilFinished` with a weak capture above does.
  /// Rethrows the sequence's error.
  ///
  /// - Parameters:
  ///   - keyPath: The property to write.
  ///   - object: The object to write to; held weakly from the start (the argument is consumed, so even the
  ///     caller's temporary is released). `nil` returns at once.
  ///   - isolation: Where the loop runs and the property is written; by default the caller's isolation.
  public func assign<Root: AnyObject>(
    to keyPath: ReferenceWritableKeyPath<Root, Element>,
    on object: consuming Root?,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Failure) {
    weak let target = object
    // A borrowed argument would stay alive until this function returns: take it, and let it go.
    _ = consume object
    guard target != nil else { return }
    var iterator = makeAsyncIterator()
    while let element = try await iterator.next(isolation: isolation) {
      guard let target else { return }
      target[keyPath: keyPath] = element
    }
  }
}
