// Bad input through the real binary: exit code 2, one line on stderr naming the flag, nothing on
// stdout, and nothing left behind in /dev/shm or /var/tmp. A plan beyond this machine's memory is
// its own kind (core/plan_error.hpp's MachineLimit): exit 3, "not available on this machine: "
// and the same one line naming the flags, nothing left behind.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "system_state.hpp"

namespace {

using xbtest::split_lines;

using xbtest::kBinary;
const std::string kDevSandbox = (std::filesystem::path(XB_BINARY).parent_path() / "dev-sandbox").string();

struct BadInput {
  BadInput(std::string label_, std::vector<std::string> args_, std::vector<std::string> must_say_,
           unsigned long long needs_more_than_available_ = 0)
      : label(std::move(label_)), args(std::move(args_)), must_say(std::move(must_say_)),
        needs_more_than_available(needs_more_than_available_) {}
  std::string label;
  std::vector<std::string> args;
  std::vector<std::string> must_say;  // every one of these appears in the message
  // Skip unless this much memory is missing (the check is about memory the machine lacks).
  unsigned long long needs_more_than_available = 0;
  std::string binary = kBinary;
  std::string prefix;  // the line starts with this
  int exit_code = 2;   // 3: a limit of this machine (memory), not bad input
};

void PrintTo(const BadInput& b, std::ostream* os) {
  for (const auto& a : b.args) *os << a << " ";
}

std::vector<std::string> dev_sandbox(std::vector<std::string> extra, bool with_model = true) {
  std::vector<std::string> args{"dev-sandbox"};
  if (with_model) args.insert(args.end(), {"--model-type", "gqa"});
  args.insert(args.end(), {"--iodirect", "false", "--sdma", "false"});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::vector<std::string> copy_cmd(std::vector<std::string> extra) {
  std::vector<std::string> args{"copy", "-s", "16K", "-n", "8", "-i", "4", "-d", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const std::vector<std::string> kSmall{"-s", "16K", "-n", "8", "-i", "4", "-d", "2"};

std::vector<std::string> with_small(std::vector<std::string> args) {
  args.insert(args.end(), kSmall.begin(), kSmall.end());
  return args;
}

constexpr unsigned long long kGiB = 1ull << 30;

std::vector<BadInput> bad_inputs() {
  const std::string ds = "xferbench dev-sandbox: ";
  const std::string cp = "xferbench copy: ";
  std::vector<BadInput> v{
      {"model_type_foo", with_small({"dev-sandbox", "--model-type", "foo", "--iodirect", "false", "--sdma", "false"}),
       {"--model-type foo"}},
      {"sdma_maybe", with_small({"dev-sandbox", "--model-type", "gqa", "--iodirect", "false", "--sdma", "maybe"}),
       {"--sdma maybe"}},
      {"iodirect_yes", with_small({"dev-sandbox", "--model-type", "mla", "--iodirect", "yes", "--sdma", "false"}),
       {"--iodirect yes"}},
      {"size_zero", dev_sandbox({"-s", "0", "-n", "8", "-d", "2"}), {"-s 0"}},
      {"size_negative", dev_sandbox({"-s", "-1", "-n", "8", "-d", "2"}), {"-s -1"}},
      {"size_unknown_unit", dev_sandbox({"-s", "16Q", "-n", "8", "-d", "2"}), {"-s 16Q"}},
      {"size_overflow", dev_sandbox({"-s", "99999999999T", "-n", "8", "-d", "2"}), {"-s 99999999999T"}},
      {"devices_zero", dev_sandbox({"-s", "16K", "-n", "8", "-d", "0"}), {"-d 0"}},
      {"blocks_zero", dev_sandbox({"-s", "16K", "-n", "0", "-d", "2"}), {"-n 0"}},
      {"iterations_zero", dev_sandbox({"-s", "16K", "-n", "8", "-d", "2", "-i", "0"}), {"-i 0"}},
      {"fragments_negative", dev_sandbox({"-s", "16K", "-n", "8", "-d", "2", "-f", "-2"}), {"-f -2"}},
      {"model_type_missing", dev_sandbox({"-s", "16K", "-n", "8", "-d", "2"}, false), {"--model-type"}},
      {"unknown_flag", dev_sandbox({"-s", "16K", "-n", "8", "-d", "2", "--bogus"}), {"--bogus"}},
      // The seed's defaults (512M x 8 blocks x 8 cards, host and device side): 64 GiB on the cpu backend.
      {"seed_defaults_need_64GiB", dev_sandbox({}), {"needs", "available", "-s", "-n", "-d", "64.0 GiB"}, 72 * kGiB},
      {"blocks_too_many", dev_sandbox({"-s", "16K", "-n", "99999999", "-d", "2"}), {"-n 99999999"}},
      {"memory_too_large", dev_sandbox({"-s", "4G", "-d", "64"}), {"needs", "available", "-s", "-n", "-d"},
       4096 * kGiB},
      {"memory_too_large_mla",
       {"dev-sandbox", "--model-type", "mla", "--iodirect", "false", "--sdma", "true", "-s", "1T", "-n", "8", "-d", "2"},
       {"needs", "available", "-s"}, 3 * 1024 * kGiB},
      {"copy_streams_zero", copy_cmd({"--streams", "0"}), {"--streams 0"}},
      {"copy_engine_warp", copy_cmd({"--engine", "warp"}), {"--engine warp"}},
      {"copy_from_gpu", copy_cmd({"--from", "gpu"}), {"--from gpu"}},
      {"copy_to_gpu", copy_cmd({"--to", "gpu"}), {"--to gpu"}},
      {"copy_format_xml", copy_cmd({"--format", "xml"}), {"--format xml"}},
      {"copy_topology_ring", copy_cmd({"--topology", "ring"}), {"--topology ring"}},
      {"copy_devices_zero", {"copy", "-d", "0"}, {"-d 0"}},
      {"copy_output_missing_dir", copy_cmd({"--output", "/nonexistent/dir/x.json"}), {"--output /nonexistent/dir/x.json"}},
      {"copy_backend_nope", copy_cmd({"--backend", "nope"}), {"--backend nope", "cpu"}},
      {"copy_size_zero", {"copy", "-s", "0"}, {"-s 0"}},
      {"copy_odirect_dir_missing", copy_cmd({"--from", "odirect", "--odirect-dir", "/nonexistent/odirect"}),
       {"--odirect-dir /nonexistent/odirect"}},
      {"copy_fragments_more_than_bytes", {"copy", "-s", "4", "-f", "5", "-d", "1"}, {"-f 5"}},
      {"copy_memory_too_large", {"copy", "-s", "1T", "-n", "64", "-d", "2"}, {"needs", "available"}, 256 * 1024 * kGiB},
  };
  // An empty value is refused, never taken as the option left out (a script's unset variable).
  const std::vector<std::vector<std::string>> empty_values{
      {"copy", "-d", ""},      {"copy", "--engine", ""},     {"copy", "-o", ""},     {"copy", "--backend", ""},
      {"link", "--transport", ""}, {"io", "-D", ""},          {"kv", "dump", "--store", ""},
      {"xfer", "client", "--peer", ""}, {"p2p", "--spp", ""}, {"fleet", "--size", ""}, {"survey", "--dir", ""},
      {"gdsio", "-f", ""}};
  for (const auto& args : empty_values) {
    std::string label = "empty";
    for (const auto& a : args) label += "_" + a;
    for (char& c : label) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const std::string& flag = args.end()[-2];
    BadInput b{label, args, {flag, "an empty value"}};
    b.prefix = "xferbench " + args[0] + ": ";
    v.push_back(std::move(b));
  }
  // A value's control characters are shown escaped: the message stays one line and cannot drive
  // the terminal.
  {
    BadInput b{"copy_engine_with_control_characters", copy_cmd({"--engine", "warp\n\x1b[31mred"}),
               {"--engine warp\\n\\x1b[31mred"}};
    b.prefix = cp;
    v.push_back(std::move(b));
  }
  // Sizes beyond memory (link, sharp_coll_test, xfer) and writes beyond the free space are tested
  // from their plans and on a small tmpfs (tests/link, tests/xfer, tests/storage): run here, on the
  // machine's own memory and disk, a broken check would really try to fill them.
  // A bad flag is reported before anything about the files: a missing block or file (a run's
  // failure, exit 1) does not hide it.
  for (std::vector<std::string> args : {std::vector<std::string>{"kv", "load", "--store", "/var/tmp", "--format", "xml"},
                                        std::vector<std::string>{"io", "-D", "/var/tmp", "--rw", "read", "--format", "xml"}}) {
    BadInput b{"flags_before_files_" + args[0], args, {"--format xml"}};
    b.prefix = "xferbench " + args[0] + ": ";
    v.push_back(std::move(b));
  }
  // A server others can reach never runs on the public built-in token (none given here).
  const std::vector<std::pair<std::vector<std::string>, std::string>> public_token{
      {{"xfer", "server", "--listen", "0.0.0.0:0"}, "--listen 0.0.0.0: a server others can reach needs a token"},
      {{"link", "--listen", "0.0.0.0:0"}, "--listen 0.0.0.0: a server others can reach needs a token"},
      {{"p2p", "--ip", "10.9.0.2", "--hip", "10.9.0.1"}, "--hip 10.9.0.1: a server others can reach needs a token"},
      {{"hixl", "0", "10.9.0.1:0", "10.9.0.2", "20000", "h2h", "write", "false"},
       "local_engine 10.9.0.1: a server others can reach needs a token"},
      {{"ascend-dmi", "--bw", "-t", "p2p", "--sp", "0", "--ip", "10.9.0.2", "--hip", "10.9.0.1"},
       "--hip 10.9.0.1: a server others can reach needs a token"}};
  for (const auto& [args, say] : public_token) {
    std::string label = "public_token_" + args[0];
    for (char& c : label) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    BadInput b{label, args, {say, "XFERBENCH_TOKEN"}};
    b.prefix = "xferbench " + args[0] + ": ";
    v.push_back(std::move(b));
  }
  // The caps on what a client may make a server expose: a server's flags, with sane values.
  const std::vector<std::pair<std::vector<std::string>, std::string>> caps{
      {{"xfer", "server", "--max-exposed", "0"}, "--max-exposed 0: a size must be at least 1 byte"},
      {{"xfer", "server", "--max-exposed", "lots"}, "--max-exposed"},
      {{"link", "--listen", "127.0.0.1:0", "--max-regions", "0"}, "--max-regions"},
      {{"xfer", "client", "--peer", "127.0.0.1:1", "--max-regions", "4"}, "--max-regions: a server flag"},
      {{"link", "--max-exposed", "1G"}, "--max-exposed: only a server (--listen) takes it"}};
  for (std::size_t i = 0; i < caps.size(); ++i) {
    BadInput b{"session_caps_" + std::to_string(i), caps[i].first, {caps[i].second}};
    b.prefix = "xferbench " + caps[i].first[0] + ": ";
    v.push_back(std::move(b));
  }
  // --token-file: one way to give the token, a file only this user may read.
  {
    BadInput a{"token_file_missing", {"xfer", "server", "--token-file", "/nonexistent/xb.token"},
               {"--token-file /nonexistent/xb.token: cannot open it"}};
    a.prefix = "xferbench xfer: ";
    v.push_back(std::move(a));
    BadInput b{"token_file_and_token", {"link", "--listen", "127.0.0.1:0", "--token", "t", "--token-file", "/etc/passwd"},
               {"--token-file: not with --token"}};
    b.prefix = "xferbench link: ";
    v.push_back(std::move(b));
    BadInput c{"token_file_open_to_others", {"p2p", "--ip", "10.9.0.2", "--hip", "10.9.0.1", "--token-file", "/etc/passwd"},
               {"--token-file /etc/passwd: mode 0644, open to others"}};
    c.prefix = "xferbench p2p: ";
    v.push_back(std::move(c));
  }
  // An output that cannot be written is found before the run, not after it.
  for (const std::string where : {"/proc/xb-result.json", "/tmp"}) {
    BadInput b{where == "/tmp" ? "copy_output_is_a_directory" : "copy_output_in_proc", copy_cmd({"-o", where}),
               {"--output " + where}};
    b.prefix = cp;
    v.push_back(std::move(b));
  }
  for (auto& b : v) {
    if (b.prefix.empty()) b.prefix = b.args.front() == "copy" ? cp : ds;
    if (b.needs_more_than_available != 0) {  // memory beyond this machine: a MachineLimit
      b.exit_code = 3;
      b.prefix += "not available on this machine: ";
    }
  }
  // Through the link name the message is the dialect's own.
  BadInput link{"link_model_type_foo", {"--model-type", "foo", "--iodirect", "false", "--sdma", "false"},
                {"--model-type foo"}};
  link.binary = kDevSandbox;
  link.prefix = "dev-sandbox: ";
  v.push_back(link);
  return v;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsTwoWithOneLineAndLeavesNothing) {
  const BadInput& b = GetParam();
  if (b.needs_more_than_available != 0 && xbtest::available_memory_bytes() * 10 / 9 >= b.needs_more_than_available) {
    GTEST_SKIP() << "this machine has the memory the case asks for";
  }
  const xbtest::LeftoverWatch watch;
  // Names already there are not this run's: pids wrap (32768 here), and a name left by an earlier
  // process (a killed test, a mutation run) can carry the pid this run gets.
  const auto shm_before = xbtest::names_in(xbtest::kShmDir, xbtest::kShmPrefix);
  const auto tmp_before = xbtest::names_in(xbtest::kTmpDir, xbtest::kTmpPrefix);
  const auto is_new = [](const std::set<std::string>& before, const std::string& n) { return before.count(n) == 0; };

  const auto r = xbtest::run_binary(b.binary, b.args);
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, b.exit_code) << r.describe();
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
  const auto err = split_lines(r.err);
  ASSERT_EQ(err.size(), 1u) << "stderr: [" << r.err << "]";
  EXPECT_EQ(r.err.back(), '\n');
  EXPECT_EQ(err[0].rfind(b.prefix, 0), 0u) << err[0];
  for (const auto& s : b.must_say) EXPECT_NE(err[0].find(s), std::string::npos) << "'" << s << "' not in: " << err[0];

  // Nothing named after the run's process, and nothing new from any finished process.
  for (const auto& n : xbtest::names_in(xbtest::kShmDir, xbtest::kShmPrefix)) {
    if (is_new(shm_before, n)) {
      EXPECT_NE(xbtest::embedded_pid(n), std::optional<pid_t>(r.pid)) << "/dev/shm/" << n;
    }
  }
  for (const auto& n : xbtest::names_in(xbtest::kTmpDir, xbtest::kTmpPrefix)) {
    if (is_new(tmp_before, n)) {
      EXPECT_NE(xbtest::embedded_pid(n), std::optional<pid_t>(r.pid)) << "/var/tmp/" << n;
    }
  }
  const auto left = watch.leftovers();
  EXPECT_TRUE(left.empty()) << "left behind: " << xbtest::join(left);
}

INSTANTIATE_TEST_SUITE_P(Rejected, BadInputTest, ::testing::ValuesIn(bad_inputs()),
                         [](const auto& param_info) { return param_info.param.label; });

}  // namespace
