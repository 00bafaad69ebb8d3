// The engine table: one row per engine (its factory lives in engines/NAME.cpp).
#include "storage/io_engine.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "core/error.hpp"

namespace xb {

std::unique_ptr<IoEngine> make_psync_engine(const IoEngineSetup& setup);
std::unique_ptr<IoEngine> make_libaio_engine(const IoEngineSetup& setup);
std::unique_ptr<IoEngine> make_io_uring_engine(const IoEngineSetup& setup);

namespace {
const std::array kEngines{
    IoEngineInfo{"psync", "pread/pwrite, one IO at a time per thread", 1, make_psync_engine},
    IoEngineInfo{"libaio", "Linux native AIO (io_submit/io_getevents)", 0, make_libaio_engine},
    IoEngineInfo{"io_uring", "io_uring with registered buffers and fixed files", 0, make_io_uring_engine},
};
}  // namespace

std::string io_call(std::string_view call, const IoFile& file, const IoUnit& unit) {
  // The offset and length of what is left: after a short transfer that is where it failed.
  return fmt::format("{}({}, offset {}, {} bytes)", call, file.path, unit.offset + unit.done, unit.length - unit.done);
}

void throw_io_error(std::string_view call, const IoFile& file, const IoUnit& unit, int error_number) {
  throw SystemError(io_call(call, file, unit), error_number);
}

void throw_end_of_file(std::string_view call, const IoFile& file, const IoUnit& unit) {
  throw std::runtime_error(fmt::format("{} reached the end of the file (the file is shorter than the run expects)",
                                       io_call(call, file, unit)));
}

std::span<const IoEngineInfo> io_engines() { return kEngines; }

std::span<const std::string_view> io_engine_preference() {
  static constexpr std::string_view kPreference[] = {"io_uring", "libaio", "psync"};
  return kPreference;
}

std::string best_io_engine() {
  for (std::string_view name : io_engine_preference()) {
    const IoEngineInfo* info = find_io_engine(name);
    if (info == nullptr) continue;
    try {
      info->make(IoEngineSetup{{}, {}, IoEngineOptions{1, false, false}});
      return std::string(name);
    } catch (const Unavailable&) {
    }
  }
  return "psync";  // pread/pwrite: every kernel has them
}

const IoEngineInfo* find_io_engine(std::string_view name) {
  for (const auto& e : kEngines) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::string io_engine_names() {
  std::string s;
  for (std::size_t i = 0; i < kEngines.size(); ++i) {
    if (i > 0) s += i + 1 == kEngines.size() ? " or " : ", ";
    s += kEngines[i].name;
  }
  return s;
}

}  // namespace xb
