extension Dictionary {
  /// Creates a dictionary of the key-value pairs of an asynchronous sequence whose keys are all different.
  ///
  /// Use it where the keys are known to be unique — identifiers from one source, an enumeration:
  ///
  /// ```swift
  /// let names = await Dictionary(uniqueKeysWithValues: zip([1, 2].async, ["one", "two"].async))
  /// print(names[2] ?? "none")
  /// // Prints two.
  /// ```
  ///
  /// As the standard library's `init(uniqueKeysWithValues:)`, it stops the program at the first key that comes
  /// twice, naming it: for a source that may repeat a key — input from outside the program — use
  /// ``Swift/Dictionary/init(_:uniquingKeysWith:isolation:)`` instead.
  ///
  /// It returns when the source finishes, throws what the source throws (its `Failure`, so a non-throwing source
  /// needs no `try`), and reacts to cancellation as the source does. The source is iterated on the caller's
  /// isolation, so a source that is not `Sendable`, even one an actor holds, can be gathered on that actor. See
  /// <doc:Collections>.
  ///
  /// - Parameters:
  ///   - keysAndValues: The key-value pairs of the new dictionary; no key may come twice.
  ///   - isolation: The caller's isolation, which the source is iterated on; leave the default.
  /// - Precondition: No key comes twice.
  @inlinable
  public init<Source: AsyncSequence>(
    uniqueKeysWithValues keysAndValues: Source,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Source.Element == (Key, Value) {
    self.init()
    var iterator = keysAndValues.makeAsyncIterator()
    while let (key, value) = try await iterator.next(isolation: isolation) {
      guard updateValue(value, forKey: key) == nil else {
        preconditionFailure(
          "Dictionary(uniqueKeysWithValues:) got the key \(key) twice; use Dictionary(_:uniquingKeysWith:) for "
            + "a sequence that may repeat keys")
      }
    }
  }

  /// Creates a dictionary of the key-value pairs of an asynchronous sequence, combining the values of a key that
  /// comes more than once.
  ///
  /// Use it to count, sum or keep the latest of each key:
  ///
  /// ```swift
  /// let words = ["to", "be", "or", "not", "to", "be"].async.map { word in (word, 1) }
  /// let counts = await Dictionary(words, uniquingKeysWith: +)
  /// print(counts["to"] ?? 0, counts["not"] ?? 0)
  /// // Prints 2 1.
  /// ```
  ///
  /// `combine` is called with the value kept so far and the new one, in the source's order, on the caller's
  /// isolation: it may read and change the caller's state. It may throw what the source throws, and the initialiser
  /// then throws that type (so with a non-throwing source and closure it needs no `try`); a closure that throws
  /// another error picks an overload that throws `any Error`. A closure that awaits picks an `async` overload, as
  /// swift-async-algorithms' closure is `async`; one that does not — an operator such as `+` — calls no `async`
  /// function per element. An error of the source or the closure ends the iteration and is thrown. The source is
  /// iterated on the caller's isolation, so a source that is not `Sendable`, even one an actor holds, can be gathered
  /// on that actor; cancellation is the source's. See <doc:Collections>.
  ///
  /// - Parameters:
  ///   - keysAndValues: The key-value pairs of the new dictionary.
  ///   - combine: The value to keep for a key, given the value kept so far and the new one.
  ///   - isolation: The caller's isolation, which the source and `combine` run on; leave the default.
  @inlinable
  public init<Source: AsyncSequence>(
    _ keysAndValues: Source,
    uniquingKeysWith combine: (Value, Value) throws(Source.Failure) -> Value,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Source.Element == (Key, Value) {
    self.init()
    // A closure literal, not `combine` itself: converting an operator such as `+` to a `nonisolated(nonsending)`
    // function type crashes Swift 6.3's type checker.
    try await _merge(keysAndValues, isolation: isolation) { kept, new throws(Source.Failure) in try combine(kept, new) }
  }

  /// Creates a dictionary of the key-value pairs of an asynchronous sequence with a combining closure that throws
  /// errors of its own: it throws `any Error`.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(_:uniquingKeysWith:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    _ keysAndValues: Source,
    uniquingKeysWith combine: (Value, Value) throws -> Value,
    isolation: isolated (any Actor)? = #isolation
  ) async throws where Source.Element == (Key, Value) {
    self.init()
    try await _merge(keysAndValues._failingWithAnyError, isolation: isolation) { kept, new in try combine(kept, new) }
  }

  /// Creates a dictionary of the key-value pairs of an asynchronous sequence with a combining closure that awaits.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(_:uniquingKeysWith:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    _ keysAndValues: Source,
    uniquingKeysWith combine: nonisolated(nonsending) (Value, Value) async throws(Source.Failure) -> Value,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Source.Element == (Key, Value) {
    self.init()
    try await _merge(keysAndValues, isolation: isolation, combine)
  }

  /// Creates a dictionary of the key-value pairs of an asynchronous sequence with a combining closure that awaits
  /// and throws errors of its own: it throws `any Error`.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(_:uniquingKeysWith:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    _ keysAndValues: Source,
    uniquingKeysWith combine: nonisolated(nonsending) (Value, Value) async throws -> Value,
    isolation: isolated (any Actor)? = #isolation
  ) async throws where Source.Element == (Key, Value) {
    self.init()
    try await _merge(keysAndValues._failingWithAnyError, isolation: isolation, combine)
  }

  /// Creates a dictionary of the elements of an asynchronous sequence, grouped by the key a closure gives each.
  ///
  /// Use it to sort a finite sequence into buckets:
  ///
  /// ```swift
  /// let byInitial = await Dictionary(grouping: ["apple", "avocado", "banana"].async) { word in word.first! }
  /// print(byInitial["a"] ?? [])
  /// // Prints ["apple", "avocado"].
  /// ```
  ///
  /// Each array holds at least one element, in the source's order. `keyForValue` is called once per element, on the
  /// caller's isolation. As with ``Swift/Dictionary/init(_:uniquingKeysWith:isolation:)``, it may throw what
  /// the source throws, and the initialiser then throws that type; a closure that throws another error picks an
  /// overload that throws `any Error`, and a closure that awaits an `async` overload. An error of the source or the
  /// closure ends the iteration and is thrown. The source is iterated on the caller's isolation; cancellation is
  /// the source's. See <doc:Collections>.
  ///
  /// - Parameters:
  ///   - values: The elements to group.
  ///   - keyForValue: The key of an element's group.
  ///   - isolation: The caller's isolation, which the source and `keyForValue` run on; leave the default.
  @inlinable
  public init<Source: AsyncSequence>(
    grouping values: Source,
    by keyForValue: (Source.Element) throws(Source.Failure) -> Key,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Value == [Source.Element] {
    self.init()
    try await _group(values, isolation: isolation) { value throws(Source.Failure) in try keyForValue(value) }
  }

  /// Creates a dictionary of the elements of an asynchronous sequence, grouped by the key a closure that throws
  /// errors of its own gives each: it throws `any Error`.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(grouping:by:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    grouping values: Source,
    by keyForValue: (Source.Element) throws -> Key,
    isolation: isolated (any Actor)? = #isolation
  ) async throws where Value == [Source.Element] {
    self.init()
    try await _group(values._failingWithAnyError, isolation: isolation) { value in try keyForValue(value) }
  }

  /// Creates a dictionary of the elements of an asynchronous sequence, grouped by the key a closure that awaits
  /// gives each.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(grouping:by:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    grouping values: Source,
    by keyForValue: nonisolated(nonsending) (Source.Element) async throws(Source.Failure) -> Key,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Value == [Source.Element] {
    self.init()
    try await _group(values, isolation: isolation, keyForValue)
  }

  /// Creates a dictionary of the elements of an asynchronous sequence, grouped by the key a closure that awaits and
  /// throws errors of its own gives each: it throws `any Error`.
  ///
  /// Otherwise the same as ``Swift/Dictionary/init(grouping:by:isolation:)``.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public init<Source: AsyncSequence>(
    grouping values: Source,
    by keyForValue: nonisolated(nonsending) (Source.Element) async throws -> Key,
    isolation: isolated (any Actor)? = #isolation
  ) async throws where Value == [Source.Element] {
    self.init()
    try await _group(values._failingWithAnyError, isolation: isolation, keyForValue)
  }

  /// Adds the pairs of `source`, combining a kept value with a new one of the same key: the body of the
  /// `uniquingKeysWith:` initialisers.
  @inlinable
  mutating func _merge<Source: AsyncSequence>(
    _ source: Source,
    isolation: isolated (any Actor)?,
    _ combine: nonisolated(nonsending) (Value, Value) async throws(Source.Failure) -> Value
  ) async throws(Source.Failure) where Source.Element == (Key, Value) {
    var iterator = source.makeAsyncIterator()
    while let (key, value) = try await iterator.next(isolation: isolation) {
      if let kept = self[key] {
        self[key] = try await combine(kept, value)
      } else {
        self[key] = value
      }
    }
  }
}

extension Dictionary where Value: RangeReplaceableCollection {
  /// Appends each element of `source` to the group `keyForValue` gives it: the body of the `grouping:by:`
  /// initialisers.
  @inlinable
  mutating func _group<Source: AsyncSequence>(
    _ source: Source,
    isolation: isolated (any Actor)?,
    _ keyForValue: nonisolated(nonsending) (Source.Element) async throws(Source.Failure) -> Key
  ) async throws(Source.Failure) where Value.Element == Source.Element {
    var iterator = source.makeAsyncIterator()
    while let value = try await iterator.next(isolation: isolation) {
      let key = try await keyForValue(value)
      self[key, default: Value()].append(value)
    }
  }
}
