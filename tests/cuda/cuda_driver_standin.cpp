// A stand-in for the NVIDIA driver's libcuda.so.1, for the one call the module makes before any
// runtime call: cuDriverGetVersion, reporting the CUDA version a test chooses
// (XB_STANDIN_CUDA_DRIVER_VERSION, the driver's form: 12040 for CUDA 12.4). As the real one: a
// null pointer is CUDA_ERROR_INVALID_VALUE (1); a driver that cannot say is CUDA_ERROR_NOT_INITIALIZED
// (3). Nothing else is exported, so a module that calls further into "the driver" than the version
// check fails to find it (the runtime then says why; the probe child keeps the parent safe).
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) int cuDriverGetVersion(int* version) {
  if (version == nullptr) return 1;
  const char* chosen = std::getenv("XB_STANDIN_CUDA_DRIVER_VERSION");
  if (chosen == nullptr || *chosen == '\0') return 3;
  *version = std::atoi(chosen);
  return 0;
}
