#pragma once
// A cpu stream: one worker thread that executes queued copies in order, so submission (enqueue)
// and completion (the worker done) are as distinct as on a GPU stream.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cpu/copy_kernels.hpp"
#include "backends/device.hpp"

namespace xb::cpu {

class CpuEvent final : public Event {
 public:
  void synchronize() override;
  bool ready() override;
  // Called by a worker when the stream reaches the event.
  void complete(std::uint64_t at_ns);
  void reset();
  std::uint64_t completed_at_ns();

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::uint64_t at_ns_ = 0;
};

// The cpu backend's gate: an event the host completes; a held stream's worker waits on it.
class CpuGate final : public Gate {
 public:
  ~CpuGate() override { open(); }
  void hold(Stream& stream) override { stream.wait(event_); }
  void open() override;
  void close() override { event_.reset(); }

 private:
  CpuEvent event_;
};

class CpuStream final : public Stream {
 public:
  CpuStream(std::string engine, CopyKernel kernel, int numa_node);
  ~CpuStream() override;

  void copy(const CopyOp& op) override;
  void copy_batch(std::span<const CopyOp> ops) override;
  void flush() override {}  // every call is queued to the worker at once: nothing is held
  void record(Event& event) override;
  void wait(Event& event) override;
  void synchronize() override;
  std::string_view engine() const override { return engine_; }

 private:
  enum class TaskKind { copy, batch, record, wait };
  struct Task {
    TaskKind kind;
    CopyOp op;
    std::vector<CopyOp> batch;
    CpuEvent* event = nullptr;
  };

  void enqueue(Task task);
  void run(int numa_node);

  std::string engine_;
  CopyKernel kernel_;
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<Task> queue_;
  std::uint64_t submitted_ = 0;
  std::uint64_t completed_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace xb::cpu
