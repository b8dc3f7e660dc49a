// Experiment 1: which runtime enqueue hooks fire, on which thread, for which kind of job (Swift 6.3.1, Linux).
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

typealias Job = UnownedJob
typealias GlobalOrig = @convention(thin) (Job) -> Void
typealias GlobalHook = @convention(thin) (Job, GlobalOrig) -> Void
typealias DelayOrig = @convention(thin) (UInt64, Job) -> Void
typealias DelayHook = @convention(thin) (UInt64, Job, DelayOrig) -> Void
typealias DeadlineOrig = @convention(thin) (Int64, Int64, Int64, Int64, Int32, Job) -> Void
typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, Job, DeadlineOrig) -> Void
typealias MainOrig = @convention(thin) (Job) -> Void
typealias MainHook = @convention(thin) (Job, MainOrig) -> Void

func sym<T>(_ name: String, _: T.Type) -> UnsafeMutablePointer<T?> {
  guard let p = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("no \(name)") }
  return p.assumingMemoryBound(to: T?.self)
}
nonisolated(unsafe) let globalHook = sym("swift_task_enqueueGlobal_hook", GlobalHook.self)
nonisolated(unsafe) let delayHook = sym("swift_task_enqueueGlobalWithDelay_hook", DelayHook.self)
nonisolated(unsafe) let deadlineHook = sym("swift_task_enqueueGlobalWithDeadline_hook", DeadlineHook.self)
nonisolated(unsafe) let mainHook = sym("swift_task_enqueueMainExecutor_hook", MainHook.self)

nonisolated(unsafe) var mainThread = pthread_self()
nonisolated(unsafe) var label = "?"
func say(_ s: String) { let l = s + "\n"; var m = l; m.withUTF8 { _ = write(2, $0.baseAddress, $0.count) } }
func log(_ s: String) {
  let onMain = pthread_equal(pthread_self(), mainThread) != 0
  var line = "  [\(label)] \(s) (thread: \(onMain ? "main" : "other"))\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

actor Counter { var n = 0; func bump() -> Int { n += 1; return n } }
final class Exec: TaskExecutor { func enqueue(_ job: consuming ExecutorJob) { let j = UnownedJob(job); Thread0.run { j.runSynchronously(on: self.asUnownedTaskExecutor()) } } }
enum Thread0 { static func run(_ f: @escaping () -> Void) { let b = Unmanaged.passRetained(Box(f)).toOpaque(); var t = pthread_t(); pthread_create(&t, nil, { p in Unmanaged<Box>.fromOpaque(p!).takeRetainedValue().f(); return nil }, b); pthread_detach(t) } }
final class Box { let f: () -> Void; init(_ f: @escaping () -> Void) { self.f = f } }

@MainActor func step(_ name: String, _ body: () async -> Void) async {
  label = name; say("\(name):")
  await body()
  label = "gap"; try? await Task.sleep(for: .milliseconds(50)); label = "?"
}

@main struct Main {
  @MainActor static func main() async {
    mainThread = pthread_self()
    globalHook.pointee = { job, orig in log("enqueueGlobal \(ExecutorJob(job).description) prio \(job.priority)"); orig(job) }
    delayHook.pointee = { d, job, orig in log("enqueueGlobalWithDelay \(d)"); orig(d, job) }
    deadlineHook.pointee = { s, ns, ts, tns, clock, job, orig in log("enqueueGlobalWithDeadline \(s)s \(ns)ns clock \(clock)"); orig(s, ns, ts, tns, clock, job) }
    mainHook.pointee = { job, orig in log("enqueueMainExecutor \(ExecutorJob(job).description)"); orig(job) }

    await step("Task {} from main actor (no await)") { Task { MainActor.assertIsolated(); log("ran main task") } }
    await step("Task {} from main actor") { await Task { MainActor.assertIsolated() }.value }
    await step("Task.detached {}") { await Task.detached { }.value }
    await step("Task.detached { @MainActor }") { await Task.detached { @MainActor in }.value }
    await step("nonisolated Task { } (explicit @concurrent)") { await Task { @concurrent in }.value }
    await step("task group child") { await withTaskGroup(of: Void.self) { g in g.addTask { }; await g.waitForAll() } }
    await step("default actor call") { let c = Counter(); _ = await Task.detached { await c.bump() }.value }
    await step("Task.sleep ContinuousClock 10ms") { try? await Task.sleep(for: .milliseconds(10)) }
    await step("Task.sleep SuspendingClock 10ms") { try? await SuspendingClock().sleep(for: .milliseconds(10)) }
    await step("Task.yield on main") { await Task.yield() }
    await step("Task(executorPreference:)") { await Task(executorPreference: Exec()) { }.value }
    globalHook.pointee = nil; delayHook.pointee = nil; deadlineHook.pointee = nil; mainHook.pointee = nil
    say("done")
  }
}
