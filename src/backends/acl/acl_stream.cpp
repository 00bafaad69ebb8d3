#include "backends/acl/acl_stream.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "backends/acl/acl_error.hpp"
#include "backends/copy_order.hpp"
#include "core/size.hpp"

namespace xb::acl {
namespace {

class AclEvent final : public Event {
 public:
  explicit AclEvent(std::shared_ptr<AclDeviceContext> device) : device_(std::move(device)) {
    device_->make_current();
    // Time stamps for elapsed_us, and the sync flag so another stream may wait on it.
    check(api(), api().aclrtCreateEventWithFlag(&event_, kEventTimeLine | kEventSync), "aclrtCreateEventWithFlag",
          fmt::format("time line and sync, acl device {}", device_->index()));
  }
  ~AclEvent() override {
    device_->make_current_quietly();
    (void)api().aclrtDestroyEvent(event_);
  }
  void synchronize() override {
    device_->make_current();
    check(api(), api().aclrtSynchronizeEvent(event_), "aclrtSynchronizeEvent", where());
  }
  bool ready() override {
    device_->make_current();
    std::int32_t status = 0;
    check(api(), api().aclrtQueryEventStatus(event_, &status), "aclrtQueryEventStatus", where());
    return status == kEventRecordedComplete;
  }
  aclrtEvent handle() const { return event_; }
  const AclApi& api() const { return device_->api(); }
  const AclDeviceContext& device() const { return *device_; }
  std::string where() const { return fmt::format("acl device {}", device_->index()); }

 private:
  std::shared_ptr<AclDeviceContext> device_;
  aclrtEvent event_ = nullptr;
};

AclEvent& acl_event(Event& e) {
  auto* a = dynamic_cast<AclEvent*>(&e);
  if (a == nullptr) throw std::invalid_argument("an acl stream was given an event of another backend");
  return *a;
}

class AclStream final : public Stream {
 public:
  AclStream(std::shared_ptr<AclDeviceContext> device, std::string engine)
      : device_(std::move(device)), engine_(std::move(engine)) {
    device_->make_current();
    check(api(), api().aclrtCreateStream(&stream_), "aclrtCreateStream", where());
    if (api().aclrtMemcpyBatchAsync == nullptr) {
      batch_refused_ = "loop: this CANN runtime has no aclrtMemcpyBatchAsync";
    }
  }
  ~AclStream() override {
    device_->make_current_quietly();
    (void)api().aclrtSynchronizeStream(stream_);
    (void)api().aclrtDestroyStream(stream_);
  }

  void copy(const CopyOp& op) override {
    if (engine_ == "batch" && batch_refused_.empty()) {
      // Held for one submission at the next flush; one that depends on a held copy flushes first
      // (a batch orders nothing within it, and a Stream is an in-order queue).
      if (held_.conflicts(op)) flush();
      held_.hold(op);
      return;
    }
    copy_now(op);
  }

  // Both engines batch a list handed over at once (dev-sandbox's SDMA cases on `ce`), cut where a
  // copy depends on an earlier one of the list.
  void copy_batch(std::span<const CopyOp> ops) override {
    flush();
    for (const CopyRun& run : independent_runs(ops)) submit(ops.subspan(run.begin, run.end - run.begin));
  }

  void flush() override {
    if (!held_.empty()) submit(held_.take());
  }
  void record(Event& event) override {
    flush();
    device_->make_current();
    check(api(), api().aclrtRecordEvent(acl_event(event).handle(), stream_), "aclrtRecordEvent", where());
  }
  void wait(Event& event) override {
    flush();
    device_->make_current();
    check(api(), api().aclrtStreamWaitEvent(stream_, acl_event(event).handle()), "aclrtStreamWaitEvent", where());
  }
  void synchronize() override {
    flush();
    device_->make_current();
    check(api(), api().aclrtSynchronizeStream(stream_), "aclrtSynchronizeStream", where());
  }
  std::string_view engine() const override { return engine_; }
  std::string submission() const override { return batch_refused_.empty() ? "api" : batch_refused_; }

 private:
  struct Route {
    std::int32_t kind = kMemcpyHostToHost;
    std::size_t dest_max = 0;
    std::uint32_t src_device = 0, dst_device = 0;
  };

  // The copy's direction from where each side lives (device memory is known to the session by
  // address), and destMax: the bytes from the destination to the end of its allocation.
  Route route(const CopyOp& op) const {
    const auto src = device_->session().device_memory_owner(op.src);
    const auto dst = device_->session().device_memory_owner(op.dst);
    Route r;
    r.kind = src && dst ? kMemcpyDeviceToDevice : dst ? kMemcpyHostToDevice : src ? kMemcpyDeviceToHost : kMemcpyHostToHost;
    r.dest_max = dst ? dst->bytes_after : op.bytes;
    r.src_device = static_cast<std::uint32_t>(src ? src->device : device_->index());
    r.dst_device = static_cast<std::uint32_t>(dst ? dst->device : device_->index());
    return r;
  }

  void copy_now(const CopyOp& op) {
    device_->make_current();
    const Route r = route(op);
    check(api(), api().aclrtMemcpyAsync(op.dst, r.dest_max, op.src, op.bytes, r.kind, stream_), "aclrtMemcpyAsync",
          fmt::format("{} {} -> {}, destMax {}, {}", format_bytes_human(op.bytes), op.src, op.dst, r.dest_max, where()));
  }

  // Copies that depend on none of each other: one batch per run in one direction (the runtime
  // takes one direction a batch), or one by one where the runtime cannot batch.
  void submit(std::span<const CopyOp> ops) {
    std::size_t begin = 0;
    while (begin < ops.size()) {
      if (!batch_refused_.empty()) {
        for (std::size_t i = begin; i < ops.size(); ++i) copy_now(ops[i]);
        return;
      }
      const Route first = route(ops[begin]);
      std::size_t end = begin + 1;
      while (end < ops.size() && route(ops[end]).kind == first.kind) ++end;
      if (submit_batch(ops.subspan(begin, end - begin), first)) begin = end;
    }
  }

  // False when the runtime refuses batches (feature not supported): the caller goes one by one and
  // the stream reports it from then on.
  bool submit_batch(std::span<const CopyOp> ops, const Route& first) {
    std::vector<void*> dsts, srcs;
    std::vector<std::size_t> dest_maxs, sizes;
    for (const auto& op : ops) {
      const Route r = route(op);
      dsts.push_back(op.dst);
      srcs.push_back(const_cast<void*>(op.src));  // the API takes void**; the runtime only reads sources
      dest_maxs.push_back(r.dest_max);
      sizes.push_back(op.bytes);
    }
    MemcpyBatchAttr attr{};
    const bool src_dev = first.kind == kMemcpyDeviceToHost || first.kind == kMemcpyDeviceToDevice;
    const bool dst_dev = first.kind == kMemcpyHostToDevice || first.kind == kMemcpyDeviceToDevice;
    attr.src = {first.src_device, src_dev ? kMemLocationDevice : kMemLocationHost};
    attr.dst = {first.dst_device, dst_dev ? kMemLocationDevice : kMemLocationHost};
    std::size_t attr_index = 0;
    std::size_t fail_index = 0;
    const aclError e = api().aclrtMemcpyBatchAsync(dsts.data(), dest_maxs.data(), srcs.data(), sizes.data(), ops.size(),
                                                   &attr, &attr_index, 1, &fail_index, stream_);
    if (e == kAclErrorRtFeatureNotSupport) {
      (void)api().aclGetRecentErrMsg();
      batch_refused_ = "loop: aclrtMemcpyBatchAsync returned 207000 (not supported on this NPU)";
      return false;
    }
    if (e != kAclSuccess) {
      const std::string which = fail_index < ops.size() ? fmt::format(", copy {} failed", fail_index) : "";
      throw std::runtime_error(failure_text(
          api(), e, "aclrtMemcpyBatchAsync", fmt::format("{} copies{}, {}", ops.size(), which, where())));
    }
    return true;
  }

  const AclApi& api() const { return device_->api(); }
  std::string where() const { return fmt::format("acl device {}", device_->index()); }

  std::shared_ptr<AclDeviceContext> device_;
  std::string engine_;
  aclrtStream stream_ = nullptr;
  std::string batch_refused_;  // why batches go one by one ("loop: …"); empty while they batch
  HeldCopies held_;            // the batch engine's copies since the last flush
};

}  // namespace

std::unique_ptr<Stream> make_stream(std::shared_ptr<AclDeviceContext> device, std::string_view engine) {
  for (const auto& e : engine_names()) {
    if (e == engine) return std::make_unique<AclStream>(std::move(device), e);
  }
  return nullptr;
}

std::unique_ptr<Event> make_event(std::shared_ptr<AclDeviceContext> device) {
  return std::make_unique<AclEvent>(std::move(device));
}

double elapsed_us(Event& start, Event& end) {
  AclEvent& a = acl_event(start);
  AclEvent& b = acl_event(end);
  a.device().make_current();
  float ms = 0;
  check(a.api(), a.api().aclrtEventElapsedTime(&ms, a.handle(), b.handle()), "aclrtEventElapsedTime", a.where());
  return static_cast<double>(ms) * 1000.0;
}

}  // namespace xb::acl
