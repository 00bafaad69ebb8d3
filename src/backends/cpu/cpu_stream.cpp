#include "backends/cpu/cpu_stream.hpp"

#include <numa.h>

#include "core/clock.hpp"

namespace xb::cpu {

void CpuEvent::synchronize() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return done_; });
}

bool CpuEvent::ready() {
  std::lock_guard lock(mutex_);
  return done_;
}

void CpuEvent::complete(std::uint64_t at_ns) {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
    at_ns_ = at_ns;
  }
  cv_.notify_all();
}

void CpuEvent::reset() {
  std::lock_guard lock(mutex_);
  done_ = false;
}

std::uint64_t CpuEvent::completed_at_ns() {
  synchronize();
  std::lock_guard lock(mutex_);
  return at_ns_;
}

void CpuGate::open() {
  if (!event_.ready()) event_.complete(now_ns());
}

CpuStream::CpuStream(std::string engine, CopyKernel kernel, int numa_node)
    : engine_(std::move(engine)), kernel_(kernel), worker_([this, numa_node] { run(numa_node); }) {}

CpuStream::~CpuStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_one();
  worker_.join();
}

void CpuStream::enqueue(Task task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
    ++submitted_;
  }
  work_cv_.notify_one();
}

void CpuStream::copy(const CopyOp& op) { enqueue({TaskKind::copy, op, {}, nullptr}); }

void CpuStream::copy_batch(std::span<const CopyOp> ops) {
  // One queue entry for the whole batch: one submission, as a batch call on a device.
  enqueue({TaskKind::batch, {}, std::vector<CopyOp>(ops.begin(), ops.end()), nullptr});
}

void CpuStream::record(Event& event) {
  auto& e = static_cast<CpuEvent&>(event);
  e.reset();
  enqueue({TaskKind::record, {}, {}, &e});
}

void CpuStream::wait(Event& event) { enqueue({TaskKind::wait, {}, {}, &static_cast<CpuEvent&>(event)}); }

void CpuStream::synchronize() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [this] { return completed_ == submitted_; });
}

void CpuStream::run(int numa_node) {
  // Keep the worker next to its arena, as a device's copy engine sits next to its memory.
  if (numa_node >= 0 && numa_available() >= 0 && numa_num_configured_nodes() > 1) numa_run_on_node(numa_node);
  for (;;) {
    Task task;
    {
      std::unique_lock lock(mutex_);
      work_cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued is done
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    switch (task.kind) {
      case TaskKind::copy: kernel_(task.op.dst, task.op.src, task.op.bytes); break;
      case TaskKind::batch:
        for (const auto& op : task.batch) kernel_(op.dst, op.src, op.bytes);
        break;
      case TaskKind::record: task.event->complete(now_ns()); break;
      case TaskKind::wait: task.event->synchronize(); break;
    }
    bool idle;
    {
      std::lock_guard lock(mutex_);
      ++completed_;
      idle = completed_ == submitted_;
    }
    if (idle) idle_cv_.notify_all();
  }
}

}  // namespace xb::cpu
