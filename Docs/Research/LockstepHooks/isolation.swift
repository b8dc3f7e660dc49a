// Experiment 3: what the main-actor isolation check does on Linux (Swift 6.3.1) off the main queue.
// Usage: ./isolation <case>; each crashing case is run in its own process by isolation.sh.
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Dispatch

func say(_ s: String) { var l = s + "\n"; l.withUTF8 { _ = write(2, $0.baseAddress, $0.count) } }
func tid() -> Int32 { unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "gettid")!, to: (@convention(c) () -> Int32).self)() }
func assumeMain(_ s: String) { MainActor.assumeIsolated { say(s) } }
final class Box { let f: () -> Void; init(_ f: @escaping () -> Void) { self.f = f } }
func onNewThread(_ f: @escaping () -> Void) {
  var t = pthread_t()
  pthread_create(&t, nil, { p in Unmanaged<Box>.fromOpaque(p!).takeRetainedValue().f(); return nil },
                 Unmanaged.passRetained(Box(f)).toOpaque())
  pthread_join(t, nil)
}
/// A serial executor that runs each job at once on a fresh thread, claiming the *main actor's* executor identity.
final class ImpostorThread: TaskExecutor, @unchecked Sendable {
  func enqueue(_ job: consuming ExecutorJob) {
    let j = UnownedJob(job)
    onNewThread { j.runSynchronously(on: MainActor.sharedUnownedExecutor) }
  }
}

@main struct M {
  static func main() async {
    let which = CommandLine.arguments.dropFirst().first ?? ""
    let isMainPthread: @Sendable () -> Void = { say("  process main thread: \(getpid() == tid())") }
    switch which {
    case "mainqueue-block":
      // A plain main-queue block (no task, no executor tracking): the check falls back to the main queue check.
      await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { isMainPthread(); MainActor.assumeIsolated { say("  assumeIsolated passed in a DispatchQueue.main block") }; c.resume() }
      }
    case "other-thread-with-main-identity":
      // A job run on a non-main thread with `runSynchronously(on: MainActor.sharedUnownedExecutor)`.
      await Task(executorPreference: ImpostorThread()) {
        // Nonisolated code of this task: it runs on the impostor's thread with the main executor tracked as current.
        isMainPthread()
        MainActor.assertIsolated("assertIsolated")
        assumeMain("  assertIsolated + assumeIsolated passed on another thread (executor identity check)")
      }.value
    case "plain-thread":
      onNewThread { isMainPthread(); MainActor.assumeIsolated { say("  UNEXPECTED: passed on a plain thread") } }
    case "main-actor-task":
      await Task { @MainActor in isMainPthread(); say("  a @MainActor task after dispatch_main: runs off the process's main thread") }.value
    default: say("cases: mainqueue-block other-thread-with-main-identity plain-thread main-actor-task")
    }
  }
}
