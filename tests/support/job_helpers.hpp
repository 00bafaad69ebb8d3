#pragma once
// Small helpers the job tests share: a metric's value, the message of what a call throws, and a
// byte flipped in a real file (to prove verification finds it).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "cli/native_flag_words.hpp"
#include "core/plan_error.hpp"
#include "core/result.hpp"

namespace xb::test {

inline double metric(const CaseResult& r, std::string_view name) {
  const Metric* m = r.find_metric(name);
  EXPECT_NE(m, nullptr) << name;
  return m ? m->value : -1;
}

// The message of what `f` throws (any std::exception); "" if it does not throw. A job's rule
// (PlanError, MachineLimit) is worded as a command with `words` prints it: by default the native one.
template <typename F>
std::string error_of(F&& f, const FlagWords& words = native_flag_words()) {
  try {
    f();
  } catch (const PlanError& e) {
    return e.text().worded(words);
  } catch (const MachineLimit& e) {
    return e.text().worded(words);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

inline void flip_byte(const std::filesystem::path& file, std::uint64_t offset) {
  const int fd = open(file.c_str(), O_RDWR);
  ASSERT_GE(fd, 0) << file;
  unsigned char c = 0;
  ASSERT_EQ(pread(fd, &c, 1, static_cast<off_t>(offset)), 1);
  c ^= 0x5a;
  ASSERT_EQ(pwrite(fd, &c, 1, static_cast<off_t>(offset)), 1);
  close(fd);
}

}  // namespace xb::test
