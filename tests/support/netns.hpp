#pragma once
// Two "hosts" on one machine: a pair of network namespaces joined by a veth pair (the recipe of
// shared/TESTING.md, without the bridge: two ends need none). Names carry the test's pid and a
// counter, so parallel tests never share one; the destructor deletes both namespaces (which
// removes the veth pair), also when a test fails. Namespaces left by a test process that was
// killed are swept the next time a pair is made. Traffic stays inside the pair: its addresses
// exist only in its two namespaces.
#include <memory>
#include <string>
#include <vector>

namespace xb::test {

class NetnsPair {
 public:
  // The pair, or nullptr with the reason in `why_not` where this machine cannot make one (not
  // root, no `ip` program, namespaces refused by the kernel or the container).
  static std::unique_ptr<NetnsPair> create(std::string* why_not);
  ~NetnsPair();
  NetnsPair(const NetnsPair&) = delete;
  NetnsPair& operator=(const NetnsPair&) = delete;

  // Side 0 or 1: the namespace's name and its address on the veth ("10.213.7.1").
  const std::string& name(int side) const { return names_[side]; }
  const std::string& address(int side) const { return addresses_[side]; }
  // The program that runs a command inside a namespace (`ip`), and the arguments before the
  // command: start_binary(program(), args_to_run(0, {binary, args…})).
  const std::string& program() const { return ip_; }
  std::vector<std::string> args_to_run(int side, const std::vector<std::string>& command) const;

 private:
  NetnsPair() = default;
  std::string ip_;
  std::string names_[2];
  std::string addresses_[2];
  bool made_[2] = {false, false};
};

}  // namespace xb::test
