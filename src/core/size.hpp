#pragma once
// Sizes and counts as the seed tools write them: "16K", "1M", "512M", "1g", ranges "64M:64M".
// K = 1024. Parse errors are UsageErrors that name the flag and the rule.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xb {

// The largest size any flag accepts: 2^50 bytes (1 PiB). Far beyond any buffer; keeps every product
// of size and count well inside 64 bits.
inline constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 50;

struct SizeRange {
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// "16K" -> 16384. Accepts digits with an optional unit K, M, G, T, P (either case, optional trailing
// "B" or "iB"). Rejects 0, negatives, unknown units and anything above kMaxSize.
std::uint64_t parse_size(std::string_view text, std::string_view flag);

// "MIN:MAX" or "MAX" (then min = max unless default_min is given, as sharp_coll_test's "[MIN:]MAX").
SizeRange parse_size_range(std::string_view text, std::string_view flag, std::uint64_t default_min = 0);

// A whole number in [min, max] for a flag such as -n or -i.
std::uint64_t parse_count(std::string_view text, std::string_view flag, std::uint64_t min,
                          std::uint64_t max);

// A finite decimal number ("0.8", "1e-3"), nothing else around it; nullopt otherwise. Flags with
// a range of their own (compare's and fleet's --threshold) word the error.
std::optional<double> parse_finite_number(std::string_view text);

// "true" / "false" (the seeds' boolean spelling); anything else is a UsageError.
bool parse_bool(std::string_view text, std::string_view flag);

// 16384 -> "16K", 536870912 -> "512M", 1000 -> "1000": the largest exact binary unit.
std::string format_size(std::uint64_t bytes);

// 2^30 -> "1.0 GiB": human reading, one decimal.
std::string format_bytes_human(std::uint64_t bytes);

}  // namespace xb
