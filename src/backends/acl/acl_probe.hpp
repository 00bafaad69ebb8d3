#pragma once
// What Ascend NPUs this machine has, found without initialising ACL in this process: jobs fork one
// process per device after asking, and a process that has run aclInit hands no working runtime to
// its children. A short-lived child (backends/child_answer) opens the library, runs aclInit,
// counts the devices and reads each one, then finalises and answers.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/support.hpp"

namespace xb::acl {

struct ProbedNpu {
  std::string name;                 // the SoC ("Ascend910B3")
  std::uint64_t memory_bytes = 0;   // HBM (DDR where the chip has none)
  std::string pci_address;          // where the runtime tells it (aclrtDeviceGetPCIBusId), else empty
  int numa_node = -1;               // from sysfs, by the PCI address
  int card = -1;                    // devices joined die to die share a card; -1 where not known
  int die = -1;                     // the device's place on its card (0, 1); -1 where not known
};

struct AclProbe {
  Support support;                 // !ok: why no NPU can be used here
  std::filesystem::path library;   // the runtime library found (also when the probe failed after)
  std::vector<ProbedNpu> devices;  // empty unless support.ok
  bool batch_copies = false;       // the runtime exports aclrtMemcpyBatchAsync
  bool host_register = false;      // the runtime exports aclrtHostRegister/Unregister
  std::string topology_note;       // how cards were told ("die-to-die links (aclrtGetDevicesTopo)") or why not
};

// Finds the library in this process (no loading), then runs the probe in a child, waiting at
// most `timeout_ms`.
AclProbe probe_npus(int timeout_ms = 60000);

// The child's side, apart so it is what the stand-in runtime is tested through.
AclProbe probe_in_this_process(const std::filesystem::path& library);

// The wire format between them (JSON), apart so it is unit-tested.
std::string encode_acl_probe(const AclProbe& p);
AclProbe decode_acl_probe(const std::string& text);

}  // namespace xb::acl
