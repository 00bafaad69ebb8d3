// libFuzzer target: the size, count, number and address parsers every command's flags go through.
// The first byte picks the parser, the rest is the flag's value. Each either returns a value or
// throws UsageError naming the flag; and what it returns keeps its contract (a range's ends in
// order, a port in range, a count within its bounds).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/size.hpp"
#include "transport/address.hpp"

namespace {
void check(bool ok) {
  if (!ok) std::abort();  // a broken contract: libFuzzer keeps the input
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (data[0] % 7) {
      case 0: (void)xb::parse_size(text, "-s"); break;
      case 1: {
        const xb::SizeRange r = xb::parse_size_range(text, "-b", 1);
        check(r.min <= r.max);
        break;
      }
      case 2: {
        const std::uint64_t n = xb::parse_count(text, "-n", 1, 1000);
        check(n >= 1 && n <= 1000);
        break;
      }
      case 3: (void)xb::parse_finite_number(text); break;
      case 4: (void)xb::parse_bool(text, "--flag"); break;
      case 5: {
        const xb::SocketAddress a = xb::parse_address(text, "--listen", (data[0] & 0x80) != 0);
        check(!a.host.empty());
        (void)a.to_string();
        break;
      }
      case 6: (void)xb::parse_port(text, "--port", (data[0] & 0x80) != 0); break;
    }
  } catch (const xb::UsageError&) {
  }
  return 0;
}
