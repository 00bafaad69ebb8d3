#pragma once
// The directory two "nodes" of a p2p shared-directory test meet in (ascend-dmi --spp, xferbench p2p
// --spp): a fresh 0700 directory inside a TempDir, as the seed requires (no access for group or
// others; chmod after mkdir, since the umask could have taken bits away). Removed with the TempDir.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "support/temp_dir.hpp"

namespace xb::test {

struct SharedDir {
  TempDir tmp;
  std::filesystem::path path = tmp.path() / "spp";
  SharedDir() {
    EXPECT_EQ(mkdir(path.c_str(), 0700), 0);
    EXPECT_EQ(chmod(path.c_str(), 0700), 0);
  }
};

}  // namespace xb::test
