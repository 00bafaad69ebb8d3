#pragma once
// The part of CANN's ACL runtime API (acl/acl_rt.h, acl/acl_base_rt.h) that the Ascend backend
// calls, declared here in our own words so the module builds on any machine: no CANN headers, no
// link against libascendcl.so, which is opened at run time (acl_library.hpp). Types, values and
// signatures follow the public API reference (hicann/runtime, include/external/acl); docs/acl.md
// lists what is used and why. Every C enum of the API is a 4-byte int on Linux, so enum parameters
// are declared as std::int32_t.
#include <cstddef>
#include <cstdint>

namespace xb::acl {

using aclError = int;
using aclrtStream = void*;
using aclrtEvent = void*;
using aclrtContext = void*;

// Error codes the backend tells apart (the rest are reported by number with the runtime's message).
inline constexpr aclError kAclSuccess = 0;
inline constexpr aclError kAclErrorUninitialize = 100001;        // a call before aclInit
inline constexpr aclError kAclErrorRepeatInitialize = 100002;    // a second aclInit: harmless
inline constexpr aclError kAclErrorRtFeatureNotSupport = 207000;  // e.g. batch copies on 910 or 310P

// aclrtMemcpyKind
inline constexpr std::int32_t kMemcpyHostToHost = 0;
inline constexpr std::int32_t kMemcpyHostToDevice = 1;
inline constexpr std::int32_t kMemcpyDeviceToHost = 2;
inline constexpr std::int32_t kMemcpyDeviceToDevice = 3;  // within a device or to a peer

// aclrtMemMallocPolicy: huge pages first, normal pages where huge ones run out (small buffers).
inline constexpr std::int32_t kMemMallocHugeFirst = 0;
// aclrtMemAttr: the device's high-bandwidth memory (reported as DDR where it has none).
inline constexpr std::int32_t kHbmMem = 1;
// aclrtHostRegisterType: map host memory for the device (the only type the runtime implements).
inline constexpr std::int32_t kHostRegisterMapped = 0;
// aclrtCreateEventWithFlag: the event records a time stamp (aclrtEventElapsedTime) and can be
// waited on by another stream (without the sync flag aclrtStreamWaitEvent refuses it).
inline constexpr std::uint32_t kEventSync = 0x1;
inline constexpr std::uint32_t kEventTimeLine = 0x8;
// aclrtEventRecordedStatus: everything the event captured is done.
inline constexpr std::int32_t kEventRecordedComplete = 1;
// aclrtGetDevicesTopo: the two devices are dies of one card joined die to die.
inline constexpr std::uint64_t kDevsTopologySio = 0x20;

// aclrtMemcpyBatchAttr and its aclrtMemLocation: where each side of a run of batch copies lives.
inline constexpr std::int32_t kMemLocationHost = 0;
inline constexpr std::int32_t kMemLocationDevice = 1;
struct MemLocation {
  std::uint32_t id;    // the device (ignored for host memory)
  std::int32_t type;   // kMemLocation*
};
struct MemcpyBatchAttr {
  MemLocation dst;
  MemLocation src;
  std::uint8_t reserved[16];  // zero
};
static_assert(sizeof(MemcpyBatchAttr) == 32, "aclrtMemcpyBatchAttr is 32 bytes");

// The functions, as pointers resolved from the library. `optional` ones may be missing from older
// runtimes (null then); the others must all be there or the library is refused.
struct AclApi {
  // Initialisation and errors.
  aclError (*aclInit)(const char* config_path);
  aclError (*aclFinalize)();
  const char* (*aclGetRecentErrMsg)();
  // Devices.
  aclError (*aclrtSetDevice)(std::int32_t device);
  aclError (*aclrtResetDevice)(std::int32_t device);
  aclError (*aclrtGetDeviceCount)(std::uint32_t* count);
  aclError (*aclrtGetCurrentContext)(aclrtContext* context);
  aclError (*aclrtSetCurrentContext)(aclrtContext context);
  const char* (*aclrtGetSocName)();
  aclError (*aclrtGetMemInfo)(std::int32_t attr, std::size_t* free, std::size_t* total);
  // Memory.
  aclError (*aclrtMalloc)(void** device_ptr, std::size_t size, std::int32_t policy);
  aclError (*aclrtFree)(void* device_ptr);
  aclError (*aclrtMallocHost)(void** host_ptr, std::size_t size);
  aclError (*aclrtFreeHost)(void* host_ptr);
  // Copies, streams and events.
  aclError (*aclrtMemcpy)(void* dst, std::size_t dest_max, const void* src, std::size_t count, std::int32_t kind);
  aclError (*aclrtMemcpyAsync)(void* dst, std::size_t dest_max, const void* src, std::size_t count,
                               std::int32_t kind, aclrtStream stream);
  aclError (*aclrtCreateStream)(aclrtStream* stream);
  aclError (*aclrtDestroyStream)(aclrtStream stream);
  aclError (*aclrtSynchronizeStream)(aclrtStream stream);
  aclError (*aclrtCreateEventWithFlag)(aclrtEvent* event, std::uint32_t flag);
  aclError (*aclrtRecordEvent)(aclrtEvent event, aclrtStream stream);
  aclError (*aclrtSynchronizeEvent)(aclrtEvent event);
  aclError (*aclrtQueryEventStatus)(aclrtEvent event, std::int32_t* status);  // kEventRecordedComplete
  aclError (*aclrtEventElapsedTime)(float* ms, aclrtEvent start, aclrtEvent end);
  aclError (*aclrtStreamWaitEvent)(aclrtStream stream, aclrtEvent event);
  aclError (*aclrtDestroyEvent)(aclrtEvent event);
  // Peers.
  aclError (*aclrtDeviceCanAccessPeer)(std::int32_t* can_access, std::int32_t device, std::int32_t peer);
  aclError (*aclrtDeviceEnablePeerAccess)(std::int32_t peer, std::uint32_t flags);

  // Optional: newer runtimes only.
  aclError (*aclrtHostRegister)(void* ptr, std::uint64_t size, std::int32_t type, void** device_ptr);
  aclError (*aclrtHostUnregister)(void* ptr);
  aclError (*aclrtMemcpyBatchAsync)(void** dsts, std::size_t* dest_maxs, void** srcs, std::size_t* sizes,
                                    std::size_t count, MemcpyBatchAttr* attrs, std::size_t* attr_indexes,
                                    std::size_t attr_count, std::size_t* fail_index, aclrtStream stream);
  aclError (*aclrtGetDevicesTopo)(std::uint32_t device, std::uint32_t other, std::uint64_t* value);
  aclError (*aclrtDeviceGetPCIBusId)(std::int32_t device, char* bus_id, std::int32_t length);
};

}  // namespace xb::acl
