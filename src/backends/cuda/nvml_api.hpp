#pragma once
// The few NVML declarations the NVLink reader calls, in our own words from NVIDIA's public NVML API
// reference (nvml.h): the module dlopens libnvidia-ml.so.1 at run time, so no NVML header or
// library is needed to build it. The test suite's stand-in NVML (tests/cuda/nvml_standin.cpp)
// implements the same declarations. Layouts follow the reference exactly: these structs cross
// into the driver's library.
#include <cstddef>
#include <cstdint>

namespace xb::cuda::nvml {

using Return = int;  // nvmlReturn_t
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorUninitialized = 1;
inline constexpr Return kErrorInvalidArgument = 2;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorNotFound = 6;
inline constexpr Return kErrorUnknown = 999;

struct DeviceOpaque;
using Device = DeviceOpaque*;  // nvmlDevice_t

inline constexpr unsigned kMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS (Hopper and Blackwell have 18)

inline constexpr int kFeatureEnabled = 1;  // nvmlEnableState_t: an active link

// nvmlIntNvLinkDeviceType_t: what is at a link's far end.
inline constexpr int kRemoteGpu = 0;
inline constexpr int kRemoteIbmNpu = 1;  // a POWER9 CPU's NVLink: host memory, not a peer
inline constexpr int kRemoteSwitch = 2;

// nvmlPciInfo_t, as nvmlDeviceGetNvLinkRemotePciInfo_v2 fills it.
struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

// nvmlValue_t and nvmlFieldValue_t, for nvmlDeviceGetFieldValues.
union Value {
  double d;
  unsigned ui;
  unsigned long ul;
  unsigned long long ull;
  long long sll;
  int si;
  unsigned short us;
};
struct FieldValue {
  unsigned field_id;
  unsigned scope_id;
  long long timestamp;
  long long latency_us;
  int value_type;  // nvmlValueType_t
  Return result;   // this field's own return code
  Value value;
};
// The layouts the reference gives (checked here, not by the stand-in, which shares these structs).
static_assert(sizeof(PciInfo) == 68, "nvmlPciInfo_t: 16 + 5 x 4 + 32 bytes");
static_assert(sizeof(FieldValue) == 40 && offsetof(FieldValue, value) == 32, "nvmlFieldValue_t: value at 32");
static_assert(sizeof(Value) == 8, "nvmlValue_t: an 8-byte union");

inline constexpr unsigned kFieldNvlinkSpeedCommonMBps = 90;  // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
inline constexpr int kValueUnsignedInt = 1;                   // NVML_VALUE_TYPE_UNSIGNED_INT

// nvmlNvlinkVersion_t as nvmlDeviceGetNvLinkVersion reports it: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0,
// 5 = 3.1, 6 = 4.0, 7 = 5.0.
inline constexpr unsigned kVersion5_0 = 7;

using InitFn = Return (*)();
using ShutdownFn = Return (*)();
using ErrorStringFn = const char* (*)(Return);
using HandleByPciBusIdFn = Return (*)(const char* pci_bus_id, Device* device);
using NvLinkStateFn = Return (*)(Device, unsigned link, int* is_active);
using NvLinkVersionFn = Return (*)(Device, unsigned link, unsigned* version);
using NvLinkRemotePciInfoFn = Return (*)(Device, unsigned link, PciInfo* pci);
using NvLinkRemoteDeviceTypeFn = Return (*)(Device, unsigned link, int* type);
using FieldValuesFn = Return (*)(Device, int count, FieldValue* values);

}  // namespace xb::cuda::nvml
