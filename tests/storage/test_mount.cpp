#include "test_mount.hpp"

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace xb::test {

TmpfsMount::TmpfsMount(const std::string& options, bool read_only) {
  std::string templ = "/var/tmp/xferbench-mount-test.XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp(" + templ + ") failed");
  path_ = templ;
  const unsigned long flags = MS_NOSUID | MS_NODEV | (read_only ? MS_RDONLY : 0);
  if (mount("tmpfs", path_.c_str(), "tmpfs", flags, options.c_str()) == 0) {
    mounted_ = true;
  } else {
    why_ = "mount -t tmpfs -o " + options + " " + path_.string() + ": " + std::strerror(errno);
  }
}

TmpfsMount::~TmpfsMount() {
  if (mounted_) {
    // io_uring drops its file references a moment after the process that held them is gone, and
    // the mount is busy until then: retry briefly, then detach it lazily rather than leave it.
    bool done = false;
    for (int i = 0; i < 50 && !done; ++i) {
      done = umount2(path_.c_str(), 0) == 0;
      if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!done) umount2(path_.c_str(), MNT_DETACH);
  }
  rmdir(path_.c_str());
}

}  // namespace xb::test
