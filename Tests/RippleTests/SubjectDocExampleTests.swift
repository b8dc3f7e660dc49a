import Ripple
import Testing

// The examples of the subjects', the buffered channel's and multicast's doc comments and guides, copied and run; what
// they print is collected instead of printed.

/// Collects what an example prints.
private final class Printed: @unchecked Sendable {
  var lines: [String] = []
  func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }
}

/// `Subjects.md`'s downloads service.
final class Downloads: Sendable {
  let events = AsyncPassthroughSubject<String>()
  func didFinish(_ name: String) { events.send(name) }
}

/// `SubjectsChannelsAndObserved.md`'s connection.
actor Connection {
  let status = AsyncCurrentValueSubject("offline", bufferingPolicy: .bufferingNewest(1))
  func didConnect() { status.value = "online" }
}

@Suite("Subject doc examples", .timeLimit(.minutes(1)))
struct SubjectDocExampleTests {
  @Test("AsyncPassthroughSubject: both iterators get ok, then the end")
  func passthrough() async {
    let out = Printed()
    let taps = AsyncPassthroughSubject<String>()
    var log = taps.makeAsyncIterator()
    var audit = taps.makeAsyncIterator()
    taps.send("ok")
    taps.send(.finished)
    out.print(await log.next() as Any, await audit.next() as Any, await log.next() as Any)
    #expect(out.lines == [#"Optional("ok") Optional("ok") nil"#])
  }

  @Test("AsyncThrowingCurrentValueSubject: 0, 50, 100")
  func currentValue() async throws {
    let out = Printed()
    let progress = AsyncThrowingCurrentValueSubject<Int, any Error>(0)
    var view = progress.makeAsyncIterator()
    progress.value = 50
    progress.send(100)
    progress.send(.finished)
    while let percent = try await view.next() { out.print(percent) }
    out.print(progress.value)
    #expect(out.lines == ["0", "50", "100", "100"])
  }

  @Test("AsyncReplaySubject: b, c, d")
  func replay() async {
    let out = Printed()
    let lines = AsyncReplaySubject<String>(bufferSize: 2)
    lines.send("a")
    lines.send("b")
    lines.send("c")
    var late = lines.makeAsyncIterator()
    lines.send("d")
    lines.send(.finished)
    while let line = await late.next() { out.print(line) }
    #expect(out.lines == ["b", "c", "d"])
  }

  @Test("AsyncBufferedChannel and BufferedChannel.md: resize, upload")
  func bufferedChannel() async {
    let out = Printed()
    let jobs = AsyncBufferedChannel<String>()
    jobs.send("resize")
    jobs.send("upload")
    jobs.finish()
    for await job in jobs { out.print(job) }
    #expect(out.lines == ["resize", "upload"])
  }

  @Test("Multicast.md: the first next() connects; a late iterator gets the replay")
  func multicast() async {
    let out = Printed()
    let status = AsyncBufferedChannel<String>()
    let shared = status.multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()
    var banner = shared.makeAsyncIterator()
    status.send("online")
    out.print(await banner.next() as Any)
    var badge = shared.makeAsyncIterator()
    out.print(await badge.next() as Any)
    #expect(out.lines == [#"Optional("online")"#, #"Optional("online")"#])
  }

  @Test("Subjects.md: a delegate's callback reaches a listener")
  func downloads() async {
    let downloads = Downloads()
    var listener = downloads.events.makeAsyncIterator()
    downloads.didFinish("report.pdf")
    #expect(await listener.next() == "report.pdf")
  }

  @Test("SubjectsChannelsAndObserved.md: a slow listener skips to the newest status")
  func connection() async {
    let connection = Connection()
    var listener = connection.status.makeAsyncIterator()
    #expect(await listener.next() == "offline")
    await connection.didConnect()
    #expect(await listener.next() == "online")
  }

  @Test("AsyncSubject: a function over any subject")
  func forward() async {
    func forward(_ lines: [String], to subject: some AsyncSubject<String, Never>) {
      for line in lines { subject.send(line) }
      subject.send(.finished)
    }
    let subject = AsyncReplaySubject<String>(bufferSize: 2)
    forward(["a", "b"], to: subject)
    var collected: [String] = []
    for await line in subject { collected.append(line) }
    #expect(collected == ["a", "b"])
  }
}
