#pragma once
// Several "hosts" on one machine: network namespaces on a bridge (shared/TESTING.md's recipe), each
// with one veth into the bridge and an address of a /24 of its own (10.214.K.0/24, K per bridge;
// the bridge itself is .254, so programs in this namespace, such as mpirun, reach the hosts). Names carry
// the test's pid and a counter, so parallel tests never share one; the destructor deletes the
// namespaces (which removes their veths) and the bridge, also when a test fails. What a killed test
// process left behind is swept the next time a bridge is made.
#include <memory>
#include <string>
#include <vector>

namespace xb::test {

class NetnsBridge {
 public:
  // `hosts` namespaces (2 to 250) on a new bridge, or nullptr with the reason in `why_not` where
  // this machine cannot make them (not root, no `ip`, namespaces refused).
  static std::unique_ptr<NetnsBridge> create(int hosts, std::string* why_not);
  ~NetnsBridge();
  NetnsBridge(const NetnsBridge&) = delete;
  NetnsBridge& operator=(const NetnsBridge&) = delete;

  int hosts() const { return static_cast<int>(names_.size()); }
  const std::string& name(int host) const { return names_.at(static_cast<std::size_t>(host)); }
  const std::string& address(int host) const { return addresses_.at(static_cast<std::size_t>(host)); }
  // The host's interface on the bridge, inside its namespace.
  const std::string& device() const { return device_; }
  // "10.214.3.0/24": the hosts' subnet (for MPI's *_if_include).
  const std::string& subnet() const { return subnet_; }

  // Runs a program inside a host's namespace (`ip netns exec NAME program args…`), output captured;
  // throws std::runtime_error with that output when it fails.
  void run_in(int host, const std::vector<std::string>& command) const;

 private:
  NetnsBridge() = default;
  std::string ip_;
  std::string bridge_;
  std::string device_ = "xbeth0";
  std::string subnet_;
  std::vector<std::string> names_;
  std::vector<std::string> addresses_;
  std::vector<bool> made_;
  bool bridge_made_ = false;
};

}  // namespace xb::test
