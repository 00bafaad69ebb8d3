#pragma once
// The cpu backend with one thing changed for a test: the streams a job gets (each wrapping a real
// cpu stream), its device memory presented as memory the CPU cannot address (a GPU's), so a job
// fills and checks it through streams as it does on a GPU, or a direct storage path (GPUD's). Everything else is the
// real cpu backend: real arenas, real worker threads, real copies.
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "backends/device.hpp"

namespace xb::test {

// A stream that passes every call to a real one; a test's stream overrides what it changes.
class ForwardingStream : public Stream {
 public:
  explicit ForwardingStream(std::unique_ptr<Stream> real) : real_(std::move(real)) {}
  void copy(const CopyOp& op) override { real_->copy(op); }
  void copy_batch(std::span<const CopyOp> ops) override { real_->copy_batch(ops); }
  void flush() override { real_->flush(); }
  void record(Event& e) override { real_->record(e); }
  void wait(Event& e) override { real_->wait(e); }
  void synchronize() override { real_->synchronize(); }
  std::string_view engine() const override { return real_->engine(); }

 protected:
  Stream& real() { return *real_; }

 private:
  std::unique_ptr<Stream> real_;
};

// A gate that holds and opens as the real one it wraps but whose wait, it says afterwards, gave up
// before it was opened (the CUDA gate's bound): confirm_held throws `why`.
class GaveUpGate final : public Gate {
 public:
  GaveUpGate(std::unique_ptr<Gate> real, std::string why) : real_(std::move(real)), why_(std::move(why)) {}
  void hold(Stream& s) override { real_->hold(s); }
  void open() override { real_->open(); }
  void close() override { real_->close(); }
  void confirm_held() override { throw std::runtime_error(why_); }

 private:
  std::unique_ptr<Gate> real_;
  std::string why_;
};

struct CpuWrap {
  // Called, in the device's process, for every stream a job creates: the stream the job gets.
  std::function<std::unique_ptr<Stream>(std::unique_ptr<Stream> real, std::string_view engine)> stream;
  // false: capabilities() says device memory is not in host RAM, as a GPU backend's.
  bool device_memory_in_host_ram = true;
  // false: capabilities() says the device has no event timing (jobs time by the host clock alone).
  bool event_timing = true;
  // Set: capabilities().storage_direct, and open_direct_storage() returns what this makes (a
  // stand-in for cuFile over the cpu arenas).
  std::function<std::unique_ptr<DirectStorage>()> direct_storage;
  // Set: device `index`'s info() names this PCI address (a function of a synthetic sysfs tree), so
  // the judge's ceilings can be read for it.
  std::function<std::string(int index)> pci_address;
  // Set: create_gate() returns what this makes of the real cpu gate (a gate that misbehaves as a
  // device's might); unset, the device has no gate (as before the hook).
  std::function<std::unique_ptr<Gate>(std::unique_ptr<Gate> real)> gate;
  // Set: changes device `index`'s info() after the above (its peer links, as the CUDA backend reads
  // NVLinks from NVML), so the judge's peer-link ceilings can be read for it.
  std::function<void(int index, DeviceInfo& info)> info;
};

std::unique_ptr<Backend> make_wrapped_cpu_backend(CpuWrap wrap);

// Streams that hold their copies as the CUDA batch engine does, until flush(), record(), wait() or
// synchronize(), and fail a synchronize() (std::logic_error) while another stream of the same device
// still holds copies: how a test shows that a job runs its streams side by side, not one after
// another (which is what waiting on holding streams in turn does).
CpuWrap holding_streams();

}  // namespace xb::test
