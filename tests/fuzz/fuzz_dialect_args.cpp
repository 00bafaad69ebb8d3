// libFuzzer target: each dialect's argument parser (dev-sandbox, its trans and aio, gdsio, hixl,
// ascend-dmi, sharp_coll_test). The first byte picks the dialect, the rest is its command line.
// A parser either returns a request or refuses with UsageError / HelpRequested, or says that what the
// arguments name is absent here (Unavailable: a -d device this machine lacks, HIXL's UB protocols
// or the exception benchmark's test case); nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cli/args.hpp"
#include "core/error.hpp"
#include "dialects/ascend_dmi.hpp"
#include "dialects/dev_sandbox.hpp"
#include "dialects/dev_sandbox_aio.hpp"
#include "dialects/dev_sandbox_trans.hpp"
#include "dialects/gdsio.hpp"
#include "dialects/hixl.hpp"
#include "dialects/sharp_coll_test.hpp"
#include "fuzz_input.hpp"

namespace {
// A fixed answer, so a run depends on its input only (the real lookup reads /sys).
bool only_lo_exists(std::string_view name) { return name == "lo"; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto args = xb::fuzz::split_arguments(data + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0:
        if ((data[0] & 0x80) != 0) {
          // trans: its filters, then the matrix of a fixed backend (the cpu's, as without a device).
          std::vector<std::string> skipped;
          (void)xb::dev_sandbox_trans_cases(xb::parse_dev_sandbox_trans(args), {"cpu", {"memcpy", "nt"}, false}, skipped);
        } else {
          (void)xb::parse_dev_sandbox(args);
        }
        break;
      case 1: (void)xb::parse_dev_sandbox_aio(args); break;
      case 2: (void)xb::parse_gdsio(args); break;
      case 3: (void)xb::parse_hixl(args, xb::HixlSettings{}); break;
      case 4: (void)xb::parse_ascend_dmi(args); break;
      case 5: (void)xb::parse_sharp_coll_test(args, only_lo_exists, (data[0] & 0x80) != 0); break;
    }
  } catch (const xb::UsageError&) {
  } catch (const xb::HelpRequested&) {
  } catch (const xb::Unavailable&) {
  }
  return 0;
}
