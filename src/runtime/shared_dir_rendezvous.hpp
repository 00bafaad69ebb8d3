#pragma once
// The seed's shared-directory rendezvous (ascend-dmi --sp 0/1 --spp DIR): two nodes that both see
// DIR meet through files instead of a fixed port. Layout, as the seed's note describes it:
//   DIR/ascend_check/                         made by the first node to come (0700)
//   DIR/ascend_check/<hip>_<d>_<m>.flag       one flag file per node while it runs ("two temporary
//                                             flag files"); d: the node's device
//   DIR/ascend_check/<src>_<d>_<dst>_<d>_<m>/ the pair's directory, named from the rank 0 (--sp 0)
//                                             node's view: its address and device, then the other's;
//                                             made by the rank 0 node
//       procInfo                              the --sp 0 node's rendezvous address and pid
//       procInfoBi                            the --sp 1 node's answer (its address and pid)
// Safety (the seed's rules and the issue's): DIR was checked by check_shared_dir (no '*', a
// real directory, this user's, no group/other access); every file is created with O_CREAT | O_EXCL |
// O_NOFOLLOW, mode 0600, every directory with mkdir 0700 and then opened with O_NOFOLLOW and
// checked to be this user's; a file that exists already (another run, or one that was killed) is
// an error naming it, never overwritten. Each node removes what it created (the destructor, and
// core/cleanup on SIGINT/SIGTERM for files); ascend_check itself is removed once empty.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/cleanup.hpp"
#include "transport/address.hpp"

namespace xb {

// The seed's rules for the shared directory, before anything is made in it: no wildcard, an
// existing directory reached without following a symbolic link, owned by this user, with no
// permission for group or others, and readable, writable and searchable by this user. UsageError
// naming `flag` (as the user typed it) and the rule otherwise.
void check_shared_dir(const std::string& path, const std::string& flag);

class SharedDirRendezvous {
 public:
  // Makes ascend_check (if needed) and this node's flag file; the rank 0 node also makes the pair's
  // directory. `device0`/`device1`: the devices of rank 0 and rank 1 (the ascend-dmi dialect: -d on
  // both). Throws std::runtime_error naming the path when anything is in the way.
  SharedDirRendezvous(const std::string& dir, int rank, const std::string& host_ip, const std::string& peer_ip,
                      int device0, int device1, bool card);
  ~SharedDirRendezvous();
  SharedDirRendezvous(const SharedDirRendezvous&) = delete;
  SharedDirRendezvous& operator=(const SharedDirRendezvous&) = delete;

  // Rank 0: writes procInfo with the address it listens on.
  void publish(const SocketAddress& listening);
  // Rank 1: waits for procInfo until `deadline`, reads the address, answers with procInfoBi.
  // TransportError naming the file, the window and `listener` (the node to start) when it does not
  // appear in time.
  SocketAddress await_peer(std::chrono::steady_clock::time_point deadline, std::chrono::milliseconds window,
                           const std::string& own_address, const std::string& listener);

  const std::string& pair_dir() const { return pair_dir_; }

 private:
  void create_file(const std::string& path, const std::string& content);
  void remove_created() noexcept;

  int rank_;
  std::string check_dir_;
  std::string pair_dir_;
  bool made_check_dir_ = false;
  bool made_pair_dir_ = false;
  std::vector<std::string> files_;  // made by this node, removed by the destructor
  std::vector<std::unique_ptr<ScopedCleanup>> cleanups_;
};

}  // namespace xb
