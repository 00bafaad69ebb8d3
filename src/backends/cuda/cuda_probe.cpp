// The fork-safe device probe (see cuda_probe.hpp).
#include "backends/cuda/cuda_probe.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_nvlink.hpp"

namespace xb::cuda {
namespace {

// In the child: everything the parent needs, as one encoded answer.
Probe probe_in_this_process() {
  // Name the missing driver plainly: the runtime's own word for it is "insufficient driver".
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    const char* why = dlerror();
    return {Support::no(fmt::format("no NVIDIA driver: libcuda.so.1 cannot be loaded ({})", why ? why : "not found")),
            {}};
  }
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    return {Support::no(fmt::format("cudaGetDeviceCount failed: {}", error_text(e))), {}};
  }
  if (count == 0) return {Support::no("the NVIDIA driver is loaded but reports no CUDA device"), {}};
  Probe p;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (const cudaError_t e = cudaGetDeviceProperties(&prop, i); e != cudaSuccess) {
      return {Support::no(fmt::format("cudaGetDeviceProperties({}) failed: {}", i, error_text(e))), {}};
    }
    ProbedDevice d;
    d.name = prop.name;
    d.memory_bytes = prop.totalGlobalMem;
    d.pci_address = fmt::format("{:04x}:{:02x}:{:02x}.0", prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    d.sm_count = prop.multiProcessorCount;
    p.devices.push_back(std::move(d));
  }
  read_nvlinks(p.devices);
  return p;
}

int numa_node_of(const std::string& pci) {
  std::ifstream f("/sys/bus/pci/devices/" + pci + "/numa_node");
  int node = -1;
  if (f >> node) return node;
  return -1;
}

void write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

Probe probe_devices(int timeout_ms) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return {Support::no(fmt::format("pipe for the CUDA probe failed: {}", std::strerror(errno))), {}};
  }
  const pid_t pid = fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {Support::no(fmt::format("fork of the CUDA probe failed: {}", std::strerror(errno))), {}};
  }
  if (pid == 0) {
    ::close(fds[0]);
    write_all(fds[1], encode_probe(probe_in_this_process()));
    ::_exit(0);  // no atexit handlers or static destructors of the parent's image
  }
  ::close(fds[1]);
  std::string answer;
  char buf[4096];
  bool timed_out = false;
  for (;;) {
    pollfd pfd{fds[0], POLLIN, 0};
    const int r = ::poll(&pfd, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      timed_out = true;
      break;
    }
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return {Support::no(fmt::format("the CUDA probe did not answer within {} ms", timeout_ms)), {}};
  if (WIFSIGNALED(status)) {
    return {Support::no(fmt::format("the CUDA probe process died of signal {}", WTERMSIG(status))), {}};
  }
  Probe p = decode_probe(answer);
  for (auto& d : p.devices) d.numa_node = numa_node_of(d.pci_address);
  return p;
}

}  // namespace xb::cuda
