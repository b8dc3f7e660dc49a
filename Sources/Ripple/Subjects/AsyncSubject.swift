/// A subject: an async sequence that its owner feeds with `send`, and whose every iterator gets what is sent.
///
/// Ripple's subjects conform: ``AsyncPassthroughSubject``, ``AsyncCurrentValueSubject``, ``AsyncReplaySubject`` and
/// their throwing forms. ``_Concurrency/AsyncSequence/multicast(_:)`` takes any subject, so write a function over
/// subjects as `some AsyncSubject<Element, Failure>`:
///
/// ```swift
/// func forward(_ lines: [String], to subject: some AsyncSubject<String, Never>) {
///   for line in lines { subject.send(line) }
///   subject.send(.finished)
/// }
/// ```
///
/// A conforming type's `send(_:)` must not suspend and must be callable from any isolation; every iterator that
/// exists when an element is sent gets it; after the first termination, sends do nothing.
public protocol AsyncSubject<Element, Failure>: AnyObject, AsyncSequence, Sendable {
  /// Sends `element` to every iterator that exists now; does nothing after a termination.
  func send(_ element: Element)
  /// Ends every iteration, after what each iterator had buffered; the first termination counts.
  func send(_ termination: Termination<Failure>)
}
