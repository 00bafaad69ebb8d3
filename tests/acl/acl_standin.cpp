// A stand-in for CANN's ACL runtime (libascendcl.so), built by the test suite, so the acl backend
// module's real code path runs on a machine without an NPU. It implements the subset the module
// calls (src/backends/acl/acl_api.hpp) over host memory and one worker thread per stream, and
// enforces the contract a real runtime enforces, returning the real error codes:
//   - aclInit before anything else (100001), once (100002);
//   - a current device on the calling thread (aclrtSetDevice or aclrtSetCurrentContext) before
//     memory, streams or events are touched (107002);
//   - device memory belongs to its device: used from another device's stream it needs peer access
//     enabled from that device (107000); peer access enabled once, with flags 0;
//   - copies of the kind they say: host memory given as device memory, or device memory as host
//     memory, is refused (107000), and destMax is honoured against the real allocation (100000);
//   - batch copies: failIndex given, attrsIndexes[0] = 0, one direction, locations that match;
//   - events timed by this runtime's clock when the stream reaches them; elapsed time only between
//     completed time-line events (507006); waits only on events made with the sync flag;
//   - every resource released before aclFinalize: what is left is written to the ledger as a leak.
// Told by the environment: XB_ACL_STANDIN_DEVICES (2), XB_ACL_STANDIN_DIES_PER_CARD (1 or 2),
// XB_ACL_STANDIN_SOC (the SoC name, "Ascend910B3": a name no SKU rule matches leaves rows unjudged),
// XB_ACL_STANDIN_FAIL ("call" or "call:N": the Nth call of it fails), XB_ACL_STANDIN_NO_BATCH=1
// (batch copies answer 207000, as on a 910 or 310P), XB_ACL_STANDIN_NO_PEER=1 (no device reaches
// another), XB_ACL_STANDIN_LEDGER (a file: each process appends its init, its finalize with its
// call counts, every breach and every leak, so tests assert which path ran and that nothing leaked),
// XB_ACL_STANDIN_TRACE ("call,call": each of those calls written to the ledger as it happens, so a
// test can wait for a process to reach it).
//
// The runtime is process-wide state by nature (one per process, as the real one): it lives in one
// object here, created on first use.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using aclError = int;
constexpr aclError kOk = 0;
constexpr aclError kInvalidParam = 100000;
constexpr aclError kUninitialize = 100001;
constexpr aclError kRepeatInitialize = 100002;
constexpr aclError kRtParamInvalid = 107000;
constexpr aclError kRtInvalidDeviceId = 107001;
constexpr aclError kRtContextNull = 107002;
constexpr aclError kRtFeatureNotSupport = 207000;
constexpr aclError kRtMemoryAllocation = 207001;
constexpr aclError kRtEventNotComplete = 507006;
constexpr aclError kRtInternal = 507000;

constexpr std::uint32_t kEventSync = 0x1, kEventTimeLine = 0x8;
constexpr int kH2H = 0, kH2D = 1, kD2H = 2, kD2D = 3;

struct MemLocation {
  std::uint32_t id;
  std::int32_t type;  // 0 host, 1 device
};
struct MemcpyBatchAttr {
  MemLocation dst, src;
  std::uint8_t reserved[16];
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

std::string env_text(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

thread_local std::string t_last_error;   // aclGetRecentErrMsg's text, per thread
thread_local std::string t_returned;     // the text last returned (valid until the next call)
thread_local int t_current = -1;         // the calling thread's current device

struct Event {
  std::uint32_t flags = 0;
  int device = -1;
  std::mutex m;
  std::condition_variable cv;
  std::uint64_t recorded = 0, completed = 0;  // generations
  std::chrono::steady_clock::time_point at;
};

struct Stream {
  int device = -1;
  std::mutex m;
  std::condition_variable cv;
  std::deque<std::function<void()>> tasks;
  bool busy = false, stop = false;
  std::thread worker;

  void run() {
    std::unique_lock lock(m);
    for (;;) {
      cv.wait(lock, [&] { return stop || !tasks.empty(); });
      if (tasks.empty()) return;
      auto task = std::move(tasks.front());
      tasks.pop_front();
      busy = true;
      lock.unlock();
      task();
      lock.lock();
      busy = false;
      cv.notify_all();
    }
  }
  void push(std::function<void()> task) {
    const std::lock_guard lock(m);
    tasks.push_back(std::move(task));
    cv.notify_all();
  }
  void drain() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return tasks.empty() && !busy; });
  }
  // A stream never destroyed (a process leaving without aclFinalize) still ends its worker.
  ~Stream() {
    {
      const std::lock_guard lock(m);
      stop = true;
      cv.notify_all();
    }
    if (worker.joinable()) worker.join();
  }
};

struct Allocation {
  std::size_t bytes;
  int device;  // -1: host (pinned)
};

class Runtime {
 public:
  Runtime()
      : devices_(std::max(env_int("XB_ACL_STANDIN_DEVICES", 2), 0)),
        dies_(std::clamp(env_int("XB_ACL_STANDIN_DIES_PER_CARD", 1), 1, 2)),
        soc_(env_text("XB_ACL_STANDIN_SOC", "Ascend910B3")),
        traced_("," + env_text("XB_ACL_STANDIN_TRACE", "") + ","),
        set_count_(static_cast<std::size_t>(devices_), 0),
        contexts_(static_cast<std::size_t>(devices_)) {
    if (const char* f = std::getenv("XB_ACL_STANDIN_FAIL"); f != nullptr && *f != '\0') {
      const std::string spec(f);
      const auto colon = spec.find(':');
      fail_call_ = spec.substr(0, colon);
      fail_at_ = colon == std::string::npos ? 1 : std::strtoull(spec.c_str() + colon + 1, nullptr, 10);
    }
    for (int i = 0; i < devices_; ++i) contexts_[static_cast<std::size_t>(i)] = i;
  }

  // Every entry point starts here: counts the call and answers an injected failure.
  aclError enter(const char* call) {
    std::uint64_t n;
    {
      const std::lock_guard lock(m_);
      n = ++calls_[call];
    }
    if (traced_.find(std::string(",") + call + ",") != std::string::npos) ledger(std::string("call ") + call);
    if (fail_call_ == call && n == fail_at_) return fail(kRtInternal, std::string("injected failure of ") + call);
    return kOk;
  }
  aclError fail(aclError e, std::string text) {
    t_last_error = std::move(text);
    return e;
  }
  // A breach of the contract: refused as the real runtime would, and written to the ledger.
  aclError breach(aclError e, const std::string& text) {
    ledger("breach: " + text);
    return fail(e, text);
  }
  void ledger(const std::string& line) {
    const char* path = std::getenv("XB_ACL_STANDIN_LEDGER");
    if (path == nullptr || *path == '\0') return;
    const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    const std::string text = "pid " + std::to_string(::getpid()) + " " + line + "\n";
    (void)!::write(fd, text.data(), text.size());
    ::close(fd);
  }

  aclError need_init(const char* call) {
    if (!initialised_) return breach(kUninitialize, std::string(call) + " before aclInit");
    return kOk;
  }
  aclError need_device(const char* call) {
    if (const aclError e = need_init(call); e != kOk) return e;
    if (t_current < 0) return breach(kRtContextNull, std::string(call) + " without a current device on this thread");
    return kOk;
  }

  aclError init() {
    if (initialised_) return fail(kRepeatInitialize, "aclInit: already initialised");
    initialised_ = true;
    ledger("init");
    return kOk;
  }
  aclError finalize() {
    if (!initialised_) return breach(kUninitialize, "aclFinalize before aclInit");
    std::string left;
    {
      const std::lock_guard lock(m_);
      std::size_t device_bytes = 0, device_n = 0, host_n = 0;
      for (const auto& [p, a] : memory_) {
        if (a.device >= 0) {
          ++device_n;
          device_bytes += a.bytes;
        } else {
          ++host_n;
        }
      }
      if (device_n != 0) left += " " + std::to_string(device_n) + " device allocation(s) of " + std::to_string(device_bytes) + " B;";
      if (host_n != 0) left += " " + std::to_string(host_n) + " pinned host allocation(s);";
      if (!registered_.empty()) left += " " + std::to_string(registered_.size()) + " host registration(s);";
      if (!streams_.empty()) left += " " + std::to_string(streams_.size()) + " stream(s);";
      if (!events_.empty()) left += " " + std::to_string(events_.size()) + " event(s);";
      for (int d = 0; d < devices_; ++d) {
        if (set_count_[static_cast<std::size_t>(d)] != 0) left += " device " + std::to_string(d) + " set without reset;";
      }
    }
    if (!left.empty()) ledger("leak:" + left);
    std::string counts;
    {
      const std::lock_guard lock(m_);
      for (const auto& [name, n] : calls_) counts += " " + name + "=" + std::to_string(n);
    }
    ledger("finalize calls" + counts);
    initialised_ = false;
    return kOk;
  }

  aclError set_device(int d) {
    if (const aclError e = need_init("aclrtSetDevice"); e != kOk) return e;
    if (d < 0 || d >= devices_) return fail(kRtInvalidDeviceId, "aclrtSetDevice: invalid device id " + std::to_string(d));
    const std::lock_guard lock(m_);
    ++set_count_[static_cast<std::size_t>(d)];
    t_current = d;
    return kOk;
  }
  aclError reset_device(int d) {
    if (const aclError e = need_init("aclrtResetDevice"); e != kOk) return e;
    if (d < 0 || d >= devices_) return fail(kRtInvalidDeviceId, "aclrtResetDevice: invalid device id " + std::to_string(d));
    const std::lock_guard lock(m_);
    if (set_count_[static_cast<std::size_t>(d)] == 0) {
      return breach(kRtParamInvalid, "aclrtResetDevice of device " + std::to_string(d) + " that was not set");
    }
    if (--set_count_[static_cast<std::size_t>(d)] == 0 && t_current == d) t_current = -1;
    return kOk;
  }
  void* context_of_current() { return &contexts_[static_cast<std::size_t>(t_current)]; }
  aclError set_context(void* ctx) {
    if (const aclError e = need_init("aclrtSetCurrentContext"); e != kOk) return e;
    const auto* p = static_cast<int*>(ctx);
    if (p < contexts_.data() || p >= contexts_.data() + contexts_.size()) {
      return breach(kRtParamInvalid, "aclrtSetCurrentContext: not a context of this runtime");
    }
    const std::lock_guard lock(m_);
    if (set_count_[static_cast<std::size_t>(*p)] == 0) {
      return breach(kRtContextNull, "aclrtSetCurrentContext: device " + std::to_string(*p) + " is not set");
    }
    t_current = *p;
    return kOk;
  }

  int devices() const { return devices_; }
  int dies() const { return dies_; }
  const std::string& soc() const { return soc_; }
  bool batch_refused() const { return env_int("XB_ACL_STANDIN_NO_BATCH", 0) != 0; }
  bool peers_refused() const { return env_int("XB_ACL_STANDIN_NO_PEER", 0) != 0; }

  aclError malloc_device(void** p, std::size_t bytes) {
    if (const aclError e = need_device("aclrtMalloc"); e != kOk) return e;
    if (p == nullptr || bytes == 0) return breach(kInvalidParam, "aclrtMalloc: null pointer or 0 bytes");
    *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (*p == nullptr) return fail(kRtMemoryAllocation, "aclrtMalloc: out of memory");
    const std::lock_guard lock(m_);
    memory_[reinterpret_cast<std::uintptr_t>(*p)] = {bytes, t_current};
    return kOk;
  }
  aclError malloc_host(void** p, std::size_t bytes) {
    if (const aclError e = need_device("aclrtMallocHost"); e != kOk) return e;
    if (p == nullptr || bytes == 0) return breach(kInvalidParam, "aclrtMallocHost: null pointer or 0 bytes");
    *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (*p == nullptr) return fail(kRtMemoryAllocation, "aclrtMallocHost: out of memory");
    const std::lock_guard lock(m_);
    memory_[reinterpret_cast<std::uintptr_t>(*p)] = {bytes, -1};
    return kOk;
  }
  aclError free_memory(void* p, bool device, const char* call) {
    if (const aclError e = need_init(call); e != kOk) return e;
    const std::lock_guard lock(m_);
    const auto it = memory_.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == memory_.end() || (it->second.device >= 0) != device) {
      return breach(kRtParamInvalid, std::string(call) + ": not a pointer from its allocator");
    }
    memory_.erase(it);
    std::free(p);
    return kOk;
  }
  aclError host_register(void* p, std::uint64_t bytes, int type, void** dev) {
    if (const aclError e = need_device("aclrtHostRegister"); e != kOk) return e;
    if (p == nullptr || bytes == 0 || dev == nullptr || type != 0) {
      return breach(kInvalidParam, "aclrtHostRegister: null pointer, 0 bytes or a type other than MAPPED");
    }
    if (reinterpret_cast<std::uintptr_t>(p) % 4096 != 0) return breach(kInvalidParam, "aclrtHostRegister: not 4 KB aligned");
    const std::lock_guard lock(m_);
    if (owner_locked(p) || !registered_.insert(reinterpret_cast<std::uintptr_t>(p)).second) {
      return breach(507910, "aclrtHostRegister: already registered or not host memory");
    }
    *dev = p;
    return kOk;
  }
  aclError host_unregister(void* p) {
    if (const aclError e = need_init("aclrtHostUnregister"); e != kOk) return e;
    const std::lock_guard lock(m_);
    if (registered_.erase(reinterpret_cast<std::uintptr_t>(p)) == 0) {
      return breach(507911, "aclrtHostUnregister: not registered");
    }
    return kOk;
  }

  // The allocation holding `p` (device or pinned host), or null.
  const std::pair<const std::uintptr_t, Allocation>* owner_locked(const void* p) const {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    auto it = memory_.upper_bound(at);
    if (it == memory_.begin()) return nullptr;
    --it;
    return at - it->first < it->second.bytes ? &*it : nullptr;
  }
  // -1: host memory; else the device owning it.
  int device_of(const void* p) const {
    const std::lock_guard lock(m_);
    const auto* o = owner_locked(p);
    return o != nullptr ? o->second.device : -1;
  }
  std::size_t bytes_after(const void* p) const {
    const std::lock_guard lock(m_);
    const auto* o = owner_locked(p);
    return o != nullptr ? o->second.bytes - (reinterpret_cast<std::uintptr_t>(p) - o->first) : SIZE_MAX;
  }
  bool peer_enabled(int from, int to) const {
    const std::lock_guard lock(m_);
    return from == to || peers_.count({from, to}) != 0;
  }

  // One copy's checks, as the real runtime makes them, from the stream's device.
  aclError check_copy(const char* call, void* dst, std::size_t dest_max, const void* src, std::size_t count, int kind,
                      int stream_device) {
    if (dst == nullptr || src == nullptr) return breach(kInvalidParam, std::string(call) + ": null pointer");
    if (count > dest_max) return breach(kInvalidParam, std::string(call) + ": count above destMax");
    const int src_dev = device_of(src), dst_dev = device_of(dst);
    const bool want_src_dev = kind == kD2H || kind == kD2D, want_dst_dev = kind == kH2D || kind == kD2D;
    if (kind < kH2H || kind > kD2D) return breach(kInvalidParam, std::string(call) + ": unknown kind");
    if ((src_dev >= 0) != want_src_dev || (dst_dev >= 0) != want_dst_dev) {
      return breach(kRtParamInvalid, std::string(call) + ": kind " + std::to_string(kind) +
                                         " does not match the memory (host memory given as device memory, or the reverse)");
    }
    if (dst_dev >= 0 && dest_max > bytes_after(dst)) {
      return breach(kInvalidParam, std::string(call) + ": destMax larger than the destination allocation");
    }
    for (const int d : {src_dev, dst_dev}) {
      if (d >= 0 && !peer_enabled(stream_device, d)) {
        return breach(kRtParamInvalid, std::string(call) + ": memory of device " + std::to_string(d) +
                                           " used from device " + std::to_string(stream_device) +
                                           " without peer access enabled");
      }
    }
    return kOk;
  }

  aclError enable_peer(int peer, std::uint32_t flags) {
    if (const aclError e = need_device("aclrtDeviceEnablePeerAccess"); e != kOk) return e;
    if (flags != 0 || peer < 0 || peer >= devices_ || peer == t_current) {
      return breach(kInvalidParam, "aclrtDeviceEnablePeerAccess: flags not 0, or a bad peer");
    }
    if (peers_refused()) return fail(kRtFeatureNotSupport, "no peer path");
    const std::lock_guard lock(m_);
    if (!peers_.insert({t_current, peer}).second) {
      return breach(kRtParamInvalid, "aclrtDeviceEnablePeerAccess: already enabled");
    }
    return kOk;
  }

  Stream* new_stream() {
    auto s = std::make_unique<Stream>();
    s->device = t_current;
    Stream* raw = s.get();
    raw->worker = std::thread([raw] { raw->run(); });
    const std::lock_guard lock(m_);
    streams_.emplace(raw, std::move(s));
    return raw;
  }
  Stream* stream(void* s) {
    const std::lock_guard lock(m_);
    const auto it = streams_.find(static_cast<Stream*>(s));
    return it == streams_.end() ? nullptr : it->second.get();
  }
  aclError destroy_stream(void* s) {
    std::unique_ptr<Stream> owned;
    {
      const std::lock_guard lock(m_);
      const auto it = streams_.find(static_cast<Stream*>(s));
      if (it == streams_.end()) return breach(kRtParamInvalid, "aclrtDestroyStream: not a stream");
      owned = std::move(it->second);
      streams_.erase(it);
    }
    owned.reset();  // its worker finishes what is queued and ends
    return kOk;
  }
  Event* new_event(std::uint32_t flags) {
    auto e = std::make_shared<Event>();
    e->flags = flags;
    e->device = t_current;
    Event* raw = e.get();
    const std::lock_guard lock(m_);
    events_.emplace(raw, std::move(e));
    return raw;
  }
  // Shared: work queued on a stream keeps its event alive after aclrtDestroyEvent, as the real
  // runtime releases an event only once what was recorded on it is done.
  std::shared_ptr<Event> event(void* e) {
    const std::lock_guard lock(m_);
    const auto it = events_.find(static_cast<Event*>(e));
    return it == events_.end() ? nullptr : it->second;
  }
  aclError destroy_event(void* e) {
    const std::lock_guard lock(m_);
    if (events_.erase(static_cast<Event*>(e)) == 0) return breach(kRtParamInvalid, "aclrtDestroyEvent: not an event");
    return kOk;
  }
  std::uint64_t memory_in_use(int device) const {
    const std::lock_guard lock(m_);
    std::uint64_t n = 0;
    for (const auto& [p, a] : memory_) n += a.device == device ? a.bytes : 0;
    return n;
  }

 private:
  mutable std::mutex m_;
  int devices_;
  int dies_;
  std::string soc_;
  std::string traced_;  // ",call,call,": the calls written to the ledger as they happen
  bool initialised_ = false;
  std::vector<int> set_count_;
  std::vector<int> contexts_;  // a context is the address of its entry, holding its device
  std::map<std::string, std::uint64_t> calls_;
  std::string fail_call_;
  std::uint64_t fail_at_ = 0;
  std::map<std::uintptr_t, Allocation> memory_;
  std::set<std::uintptr_t> registered_;
  std::set<std::pair<int, int>> peers_;
  std::map<Stream*, std::unique_ptr<Stream>> streams_;
  std::map<Event*, std::shared_ptr<Event>> events_;
};

Runtime& rt() {
  static Runtime runtime;
  return runtime;
}

#define XB_ENTER(name)                                  \
  if (const aclError injected = rt().enter(name); injected != kOk) return injected

constexpr std::uint64_t kHbmBytes = 32ull << 30;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) aclError aclInit(const char*) {
  XB_ENTER("aclInit");
  return rt().init();
}
__attribute__((visibility("default"))) aclError aclFinalize() {
  XB_ENTER("aclFinalize");
  return rt().finalize();
}
__attribute__((visibility("default"))) const char* aclGetRecentErrMsg() {
  if (t_last_error.empty()) return nullptr;
  t_returned = std::move(t_last_error);
  t_last_error.clear();
  return t_returned.c_str();
}
__attribute__((visibility("default"))) aclError aclrtSetDevice(std::int32_t d) {
  XB_ENTER("aclrtSetDevice");
  return rt().set_device(d);
}
__attribute__((visibility("default"))) aclError aclrtResetDevice(std::int32_t d) {
  XB_ENTER("aclrtResetDevice");
  return rt().reset_device(d);
}
__attribute__((visibility("default"))) aclError aclrtGetDeviceCount(std::uint32_t* count) {
  XB_ENTER("aclrtGetDeviceCount");
  if (const aclError e = rt().need_init("aclrtGetDeviceCount"); e != kOk) return e;
  if (count == nullptr) return rt().breach(kInvalidParam, "aclrtGetDeviceCount: null count");
  *count = static_cast<std::uint32_t>(rt().devices());
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtGetCurrentContext(void** ctx) {
  XB_ENTER("aclrtGetCurrentContext");
  if (const aclError e = rt().need_device("aclrtGetCurrentContext"); e != kOk) return e;
  *ctx = rt().context_of_current();
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtSetCurrentContext(void* ctx) {
  XB_ENTER("aclrtSetCurrentContext");
  return rt().set_context(ctx);
}
__attribute__((visibility("default"))) const char* aclrtGetSocName() {
  if (rt().enter("aclrtGetSocName") != kOk || rt().need_init("aclrtGetSocName") != kOk) return nullptr;
  return rt().soc().c_str();
}
__attribute__((visibility("default"))) aclError aclrtGetMemInfo(std::int32_t attr, std::size_t* free, std::size_t* total) {
  XB_ENTER("aclrtGetMemInfo");
  if (const aclError e = rt().need_device("aclrtGetMemInfo"); e != kOk) return e;
  if (free == nullptr || total == nullptr || attr < 0) return rt().breach(kInvalidParam, "aclrtGetMemInfo: bad arguments");
  *total = kHbmBytes;
  *free = kHbmBytes - std::min<std::uint64_t>(kHbmBytes, rt().memory_in_use(t_current));
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtMalloc(void** p, std::size_t bytes, std::int32_t policy) {
  XB_ENTER("aclrtMalloc");
  if (policy < 0 || policy > 7) return rt().breach(kInvalidParam, "aclrtMalloc: unknown policy");
  return rt().malloc_device(p, bytes);
}
__attribute__((visibility("default"))) aclError aclrtFree(void* p) {
  XB_ENTER("aclrtFree");
  return rt().free_memory(p, true, "aclrtFree");
}
__attribute__((visibility("default"))) aclError aclrtMallocHost(void** p, std::size_t bytes) {
  XB_ENTER("aclrtMallocHost");
  return rt().malloc_host(p, bytes);
}
__attribute__((visibility("default"))) aclError aclrtFreeHost(void* p) {
  XB_ENTER("aclrtFreeHost");
  return rt().free_memory(p, false, "aclrtFreeHost");
}
__attribute__((visibility("default"))) aclError aclrtHostRegister(void* p, std::uint64_t bytes, std::int32_t type, void** dev) {
  XB_ENTER("aclrtHostRegister");
  return rt().host_register(p, bytes, type, dev);
}
__attribute__((visibility("default"))) aclError aclrtHostUnregister(void* p) {
  XB_ENTER("aclrtHostUnregister");
  return rt().host_unregister(p);
}
__attribute__((visibility("default"))) aclError aclrtMemcpy(void* dst, std::size_t dest_max, const void* src,
                                                            std::size_t count, std::int32_t kind) {
  XB_ENTER("aclrtMemcpy");
  if (const aclError e = rt().need_device("aclrtMemcpy"); e != kOk) return e;
  if (const aclError e = rt().check_copy("aclrtMemcpy", dst, dest_max, src, count, kind, t_current); e != kOk) return e;
  std::memcpy(dst, src, count);
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtMemcpyAsync(void* dst, std::size_t dest_max, const void* src,
                                                                 std::size_t count, std::int32_t kind, void* stream) {
  XB_ENTER("aclrtMemcpyAsync");
  if (const aclError e = rt().need_device("aclrtMemcpyAsync"); e != kOk) return e;
  Stream* s = rt().stream(stream);
  if (s == nullptr) return rt().breach(kRtParamInvalid, "aclrtMemcpyAsync: not a stream");
  if (s->device != t_current) return rt().breach(kRtParamInvalid, "aclrtMemcpyAsync: the stream is another device's");
  if (const aclError e = rt().check_copy("aclrtMemcpyAsync", dst, dest_max, src, count, kind, s->device); e != kOk) {
    return e;
  }
  s->push([=] { std::memcpy(dst, src, count); });
  return kOk;
}
#ifndef XB_STANDIN_WITHOUT_BATCH
__attribute__((visibility("default"))) aclError aclrtMemcpyBatchAsync(void** dsts, std::size_t* dest_maxs, void** srcs,
                                                                      std::size_t* sizes, std::size_t count,
                                                                      MemcpyBatchAttr* attrs, std::size_t* attr_indexes,
                                                                      std::size_t attr_count, std::size_t* fail_index,
                                                                      void* stream) {
  XB_ENTER("aclrtMemcpyBatchAsync");
  if (const aclError e = rt().need_device("aclrtMemcpyBatchAsync"); e != kOk) return e;
  if (fail_index == nullptr) return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: failIndex is null");
  *fail_index = SIZE_MAX;
  if (rt().batch_refused()) return rt().fail(kRtFeatureNotSupport, "aclrtMemcpyBatchAsync: not supported on this NPU");
  Stream* s = rt().stream(stream);
  if (s == nullptr || s->device != t_current) return rt().breach(kRtParamInvalid, "aclrtMemcpyBatchAsync: bad stream");
  if (count == 0 || attr_count == 0 || attr_count > count || attr_indexes == nullptr || attr_indexes[0] != 0 ||
      attrs == nullptr || dsts == nullptr || srcs == nullptr || sizes == nullptr || dest_maxs == nullptr) {
    return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: bad arrays (attrsIndexes[0] must be 0)");
  }
  int direction = -1;
  for (std::size_t k = 0; k < attr_count; ++k) {
    if (k > 0 && attr_indexes[k] <= attr_indexes[k - 1]) {
      return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: attrsIndexes not increasing");
    }
    const MemcpyBatchAttr& a = attrs[k];
    for (const auto b : a.reserved) {
      if (b != 0) return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: reserved bytes not zero");
    }
    const int kind = a.src.type == 1 ? (a.dst.type == 1 ? kD2D : kD2H) : (a.dst.type == 1 ? kH2D : kH2H);
    if (direction >= 0 && kind != direction) return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: two directions");
    direction = kind;
    const std::size_t end = k + 1 < attr_count ? attr_indexes[k + 1] : count;
    for (std::size_t i = attr_indexes[k]; i < end; ++i) {
      if (const aclError e = rt().check_copy("aclrtMemcpyBatchAsync", dsts[i], dest_maxs[i], srcs[i], sizes[i], kind,
                                             s->device);
          e != kOk) {
        *fail_index = i;
        return e;
      }
      if ((a.dst.type == 1 && static_cast<int>(a.dst.id) != rt().device_of(dsts[i])) ||
          (a.src.type == 1 && static_cast<int>(a.src.id) != rt().device_of(srcs[i]))) {
        *fail_index = i;
        return rt().breach(kInvalidParam, "aclrtMemcpyBatchAsync: a location's device is not the memory's");
      }
    }
  }
  std::vector<void*> d(dsts, dsts + count);
  std::vector<void*> sr(srcs, srcs + count);
  std::vector<std::size_t> n(sizes, sizes + count);
  s->push([d = std::move(d), sr = std::move(sr), n = std::move(n)] {
    for (std::size_t i = 0; i < d.size(); ++i) std::memcpy(d[i], sr[i], n[i]);
  });
  return kOk;
}
#endif  // XB_STANDIN_WITHOUT_BATCH: a runtime older than batch copies
__attribute__((visibility("default"))) aclError aclrtCreateStream(void** stream) {
  XB_ENTER("aclrtCreateStream");
  if (const aclError e = rt().need_device("aclrtCreateStream"); e != kOk) return e;
  *stream = rt().new_stream();
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtDestroyStream(void* stream) {
  XB_ENTER("aclrtDestroyStream");
  if (const aclError e = rt().need_init("aclrtDestroyStream"); e != kOk) return e;
  return rt().destroy_stream(stream);
}
__attribute__((visibility("default"))) aclError aclrtSynchronizeStream(void* stream) {
  XB_ENTER("aclrtSynchronizeStream");
  if (const aclError e = rt().need_device("aclrtSynchronizeStream"); e != kOk) return e;
  Stream* s = rt().stream(stream);
  if (s == nullptr) return rt().breach(kRtParamInvalid, "aclrtSynchronizeStream: not a stream");
  s->drain();
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtCreateEventWithFlag(void** event, std::uint32_t flag) {
  XB_ENTER("aclrtCreateEventWithFlag");
  if (const aclError e = rt().need_device("aclrtCreateEventWithFlag"); e != kOk) return e;
  if (event == nullptr || (flag & ~0x7fu) != 0) return rt().breach(kInvalidParam, "aclrtCreateEventWithFlag: bad flag");
  *event = rt().new_event(flag);
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtRecordEvent(void* event, void* stream) {
  XB_ENTER("aclrtRecordEvent");
  if (const aclError e = rt().need_device("aclrtRecordEvent"); e != kOk) return e;
  const std::shared_ptr<Event> ev = rt().event(event);
  Stream* s = rt().stream(stream);
  if (ev == nullptr || s == nullptr) return rt().breach(kRtParamInvalid, "aclrtRecordEvent: bad event or stream");
  std::uint64_t generation;
  {
    const std::lock_guard lock(ev->m);
    generation = ++ev->recorded;
  }
  s->push([ev, generation] {
    const std::lock_guard lock(ev->m);
    ev->at = std::chrono::steady_clock::now();  // the stand-in's clock, when the stream reaches it
    ev->completed = std::max(ev->completed, generation);
    ev->cv.notify_all();
  });
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtSynchronizeEvent(void* event) {
  XB_ENTER("aclrtSynchronizeEvent");
  if (const aclError e = rt().need_init("aclrtSynchronizeEvent"); e != kOk) return e;
  const std::shared_ptr<Event> ev = rt().event(event);
  if (ev == nullptr) return rt().breach(kRtParamInvalid, "aclrtSynchronizeEvent: not an event");
  std::unique_lock lock(ev->m);
  ev->cv.wait(lock, [ev] { return ev->completed >= ev->recorded; });
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtQueryEventStatus(void* event, std::int32_t* status) {
  XB_ENTER("aclrtQueryEventStatus");
  const std::shared_ptr<Event> ev = rt().event(event);
  if (ev == nullptr || status == nullptr) return rt().breach(kRtParamInvalid, "aclrtQueryEventStatus: bad event");
  const std::lock_guard lock(ev->m);
  *status = ev->completed >= ev->recorded ? 1 : 0;
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtEventElapsedTime(float* ms, void* start, void* end) {
  XB_ENTER("aclrtEventElapsedTime");
  if (const aclError e = rt().need_device("aclrtEventElapsedTime"); e != kOk) return e;
  const std::shared_ptr<Event> a = rt().event(start);
  const std::shared_ptr<Event> b = rt().event(end);
  if (ms == nullptr || a == nullptr || b == nullptr) return rt().breach(kRtParamInvalid, "aclrtEventElapsedTime: bad event");
  if ((a->flags & kEventTimeLine) == 0 || (b->flags & kEventTimeLine) == 0) {
    return rt().breach(kRtParamInvalid, "aclrtEventElapsedTime: an event without ACL_EVENT_TIME_LINE");
  }
  if (a == b) return rt().breach(kInvalidParam, "aclrtEventElapsedTime: the same event twice");
  std::scoped_lock lock(a->m, b->m);
  if (a->recorded == 0 || b->recorded == 0 || a->completed < a->recorded || b->completed < b->recorded) {
    return rt().fail(kRtEventNotComplete, "aclrtEventElapsedTime: an event is not complete");
  }
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtStreamWaitEvent(void* stream, void* event) {
  XB_ENTER("aclrtStreamWaitEvent");
  if (const aclError e = rt().need_device("aclrtStreamWaitEvent"); e != kOk) return e;
  const std::shared_ptr<Event> ev = rt().event(event);
  Stream* s = rt().stream(stream);
  if (ev == nullptr || s == nullptr) return rt().breach(kRtParamInvalid, "aclrtStreamWaitEvent: bad event or stream");
  if ((ev->flags & kEventSync) == 0) return rt().breach(kRtParamInvalid, "aclrtStreamWaitEvent: event without ACL_EVENT_SYNC");
  std::uint64_t generation;
  {
    const std::lock_guard lock(ev->m);
    generation = ev->recorded;
  }
  s->push([ev, generation] {
    std::unique_lock lock(ev->m);
    ev->cv.wait(lock, [ev, generation] { return ev->completed >= generation; });
  });
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtDestroyEvent(void* event) {
  XB_ENTER("aclrtDestroyEvent");
  if (const aclError e = rt().need_init("aclrtDestroyEvent"); e != kOk) return e;
  return rt().destroy_event(event);
}
__attribute__((visibility("default"))) aclError aclrtDeviceCanAccessPeer(std::int32_t* can, std::int32_t d, std::int32_t peer) {
  XB_ENTER("aclrtDeviceCanAccessPeer");
  if (const aclError e = rt().need_init("aclrtDeviceCanAccessPeer"); e != kOk) return e;
  if (can == nullptr || d == peer || d < 0 || peer < 0 || d >= rt().devices() || peer >= rt().devices()) {
    return rt().breach(kInvalidParam, "aclrtDeviceCanAccessPeer: bad devices (they must differ)");
  }
  *can = rt().peers_refused() ? 0 : 1;
  return kOk;
}
__attribute__((visibility("default"))) aclError aclrtDeviceEnablePeerAccess(std::int32_t peer, std::uint32_t flags) {
  XB_ENTER("aclrtDeviceEnablePeerAccess");
  return rt().enable_peer(peer, flags);
}
__attribute__((visibility("default"))) aclError aclrtGetDevicesTopo(std::uint32_t d, std::uint32_t other, std::uint64_t* value) {
  XB_ENTER("aclrtGetDevicesTopo");
  if (const aclError e = rt().need_init("aclrtGetDevicesTopo"); e != kOk) return e;
  const auto n = static_cast<std::uint32_t>(rt().devices());
  if (value == nullptr || d >= n || other >= n || d == other) return rt().breach(kInvalidParam, "aclrtGetDevicesTopo: bad devices");
  const bool same_card = static_cast<int>(d) / rt().dies() == static_cast<int>(other) / rt().dies();
  *value = same_card ? 0x20 : 0x01;  // die to die on one card, else HCCS
  return kOk;
}

}  // extern "C"
