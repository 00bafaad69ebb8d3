#pragma once
// The device interface: what a compute device's memory and copy queues look like to every job.
// The cpu backend implements it over host memory arenas and worker threads; the CUDA and Ascend
// backends implement it over their runtimes (streams, events, cudaMalloc/aclrtMalloc, host
// registration, peer access). Jobs only ever see this header.
//
// Raise kModuleInterfaceVersion (core/module_entry.hpp) whenever any class here changes layout or
// meaning: the registry refuses a module built against another version.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/support.hpp"

namespace xb {

// One copy: `bytes` from `src` to `dst`. Either side may be host or device memory of this device,
// or (after enable_peer_access) device memory of a peer.
struct CopyOp {
  void* dst = nullptr;
  const void* src = nullptr;
  std::size_t bytes = 0;
};

// A point in a stream's order of work. Recorded by Stream::record; complete when everything the
// stream had before it is done.
class Event {
 public:
  virtual ~Event() = default;
  virtual void synchronize() = 0;  // block until complete
  virtual bool ready() = 0;        // complete yet?
};

// An in-order queue of copies. Every call returns without waiting for the copies (asynchronous);
// synchronize() waits for all of it. A copy error surfaces from synchronize() as an exception.
// A stream may hold copies back to submit many together (the CUDA batch engine): what it holds goes
// out at flush(), record(), wait() or synchronize(). So a caller driving several streams at once
// flushes every one before it waits on any, or stream k's copies start only after stream k-1's end.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual void copy(const CopyOp& op) = 0;
  // Many copies in one submission (cudaMemcpyBatchAsync, a CUDA graph, an SDMA task list). Backends
  // without a batch path may queue them one by one; capabilities().batch_submit says which.
  virtual void copy_batch(std::span<const CopyOp> ops) = 0;
  // Submits whatever the stream holds back, without waiting for it; a no-op where nothing is held.
  virtual void flush() = 0;
  virtual void record(Event& event) = 0;
  virtual void wait(Event& event) = 0;  // later work in this stream waits for `event`
  virtual void synchronize() = 0;
  virtual std::string_view engine() const = 0;
  // How batches went out, for results, where a backend has several ways ("api", "graph", or "loop:
  // why"); empty where there is one way.
  virtual std::string submission() const { return {}; }
};

// A line-up blocker: streams told to wait at the gate hold all their later work until the host
// opens it, so a timed window is queued whole before any of it moves and the time of enqueuing is
// never in the device's figure (nvbandwidth holds a stream with a spin kernel for the same reason;
// the cpu backend's streams wait on an event the host completes). Closed when made; hold() queues
// the wait on a stream, open() releases every stream held. The destructor opens it, so a stream
// is never left held by an error between hold() and open().
class Gate {
 public:
  virtual ~Gate() = default;
  virtual void hold(Stream& stream) = 0;
  virtual void open() = 0;
  virtual void close() = 0;  // for the next window: streams held from now wait for the next open()
  // Once the held streams have drained: throws where a stream went on before open() (the CUDA
  // gate's wait gives up after a bound, so that a stream is never held for good), since the
  // window's device time then includes its enqueuing. Interface version 8.
  virtual void confirm_held() {}
};

enum class MemoryPlace { device, host_pinned, host_pageable };

// Memory from a device's allocator; released by the destructor.
class Allocation {
 public:
  virtual ~Allocation() = default;
  virtual void* data() const = 0;
  virtual std::size_t size() const = 0;
  virtual MemoryPlace place() const = 0;
};

// Host memory made known to a device (cudaHostRegister, aclrtHostRegister, mlock); undone by the
// destructor. The memory must outlive the registration.
class Registration {
 public:
  virtual ~Registration() = default;
};

// One file opened for direct storage IO (cuFileHandleRegister): data moves between the file and
// this device's memory without a host bounce buffer. Calls are synchronous, as gdsio's GPUD threads
// make them, and may move fewer bytes than asked (the caller continues from there). `base` is the
// start of a buffer given to DirectStorage::register_buffer (cuFile wants the registered base and
// an offset into it, never a pointer into the middle).
class DirectFile {
 public:
  virtual ~DirectFile() = default;
  // Bytes moved; 0 from read at the end of the file. Throws std::system_error (errno) for a file
  // system error and std::runtime_error naming the call and the library's error for others.
  virtual std::size_t read(void* base, std::size_t base_offset, std::size_t bytes, std::uint64_t file_offset) = 0;
  virtual std::size_t write(const void* base, std::size_t base_offset, std::size_t bytes,
                            std::uint64_t file_offset) = 0;
};

// A device's direct path between files and its memory (GPUDirect Storage through cuFile): what the
// io job's GPUD transfer type runs on. Opened per device; shared by the threads of a run.
class DirectStorage {
 public:
  virtual ~DirectStorage() = default;
  virtual std::string_view name() const = 0;  // the engine, for results: "cufile"
  // How data really moves, for results: "GPUDirect Storage (nvidia-fs loaded) …" or "compat mode …".
  virtual std::string mode() const = 0;
  // `fd` (opened by the caller, O_DIRECT where the mode needs it) must outlive the returned file.
  virtual std::unique_ptr<DirectFile> open_file(int fd, std::string_view path) = 0;
  // Device memory from Device::allocate made ready for direct IO (cuFileBufRegister).
  virtual std::unique_ptr<Registration> register_buffer(void* data, std::size_t bytes) = 0;
};

// Links of one kind from a device straight to a peer device or to a switch of such links (NVLink,
// HCCS): what a copy between two devices crosses instead of PCIe, and so what judges p2p
// (judge/peer_link_ceiling). One entry per (technology, far end, rate): 18 NVLinks to the NVSwitch
// fabric are one entry with links = 18.
struct PeerLink {
  std::string technology;            // "NVLink 4.0", "HCCS"
  std::string peer_pci_address;      // the device at the far end; empty through a switch
  bool through_switch = false;       // a switch fabric: every device on it is reachable
  int links = 0;                     // active links bundled in this entry
  double bytes_per_second_each = 0;  // one link, one direction, as the runtime reports its rate
};

struct DeviceInfo {
  int index = 0;
  std::string name;               // "cpu arena 0 (NUMA node 0)", "NVIDIA H200"
  std::uint64_t memory_bytes = 0; // total device memory (0 where unknown)
  int numa_node = -1;             // NUMA node nearest the device (-1 where unknown)
  std::string pci_address;        // "0000:18:00.0" where known
  // The card the device is on and its place there, where a card carries several devices joined
  // die to die (Ascend's two-die cards: ascend-dmi -m card moves both at once); -1 where unknown.
  int card = -1;
  int die = -1;
  std::vector<PeerLink> peer_links;  // active links to peers (empty: none, or not read: see the note)
  int peer_links_down = 0;           // links the device has that are not active (trained down, cut)
  // How the peer links were read ("NVML: 18 active NVLinks") or why not ("no NVLink on this
  // device", "libnvidia-ml.so.1 cannot be loaded …"); empty where the backend has no such links.
  std::string peer_links_note;
};

struct Capabilities {
  // Accepted by create_stream(). The first is the default and the plainest (ce, memcpy): the one
  // setup and verification copy through (setup_engine), so an engine under test never fills or
  // checks its own work.
  std::vector<std::string> engines;
  bool batch_submit = false;         // copy_batch is one submission, not a loop
  bool peer_copy = false;            // devices of this backend can copy to each other
  bool host_register = false;        // register_host pins existing memory
  bool event_timing = false;         // elapsed_us is measured by the device
  // Any device index may be opened (the cpu backend's arenas), not just [0, device_count()).
  bool virtual_devices = false;
  // Device memory is taken from host RAM (the cpu backend's arenas): memory checks count it there.
  bool device_memory_in_host_ram = false;
  // Files are read into and written from device memory directly, without a host bounce buffer
  // (GPUDirect Storage through cuFile): what the io job's GPUD transfer type needs.
  bool storage_direct = false;
};

// The engine that fills and checks device memory around a measurement (see Capabilities::engines).
inline const std::string& setup_engine(const Capabilities& caps) { return caps.engines.front(); }

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;

  // Device memory, every page touched or otherwise ready for copies.
  virtual std::unique_ptr<Allocation> allocate(std::size_t bytes) = 0;
  // Host memory from the device runtime's allocator: pinned (cudaHostAlloc) or pageable.
  virtual std::unique_ptr<Allocation> allocate_host(std::size_t bytes, bool pinned) = 0;
  virtual std::unique_ptr<Registration> register_host(void* data, std::size_t bytes) = 0;

  // A stream that copies with `engine` (one of capabilities().engines); throws Unavailable if the
  // backend does not have it.
  virtual std::unique_ptr<Stream> create_stream(std::string_view engine) = 0;
  virtual std::unique_ptr<Event> create_event() = 0;
  // Time between two completed events, in microseconds.
  virtual double elapsed_us(Event& start, Event& end) = 0;
  // A gate for this device's streams (closed), or null where the backend has no way to hold a
  // stream (then a window's enqueuing may show in its device time; results say which).
  virtual std::unique_ptr<Gate> create_gate() { return nullptr; }

  virtual Support peer_access(Device& peer) = 0;
  virtual void enable_peer_access(Device& peer) = 0;

  // The direct storage path (capabilities().storage_direct); throws Unavailable, naming what is
  // missing (no cuFile library, its driver refusing), where the device has none.
  virtual std::unique_ptr<DirectStorage> open_direct_storage() = 0;
};

// Jobs query a backend in the parent process and then fork one process per device, so
// name(), availability(), device_count() and capabilities() must be fork-safe: they may not create
// a runtime context a child would inherit (a CUDA context does not survive fork; query through the
// driver API without a context, or NVML). open_device() runs in the child and may.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;  // "cpu", "cuda", "acl"
  // Whether the backend can run here (driver present, devices found), and if not, why.
  virtual Support availability() const = 0;
  virtual int device_count() const = 0;
  virtual const Capabilities& capabilities() const = 0;
  virtual std::unique_ptr<Device> open_device(int index) = 0;
};

}  // namespace xb
