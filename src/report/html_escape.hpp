#pragma once
// Text from result files (hostnames, command lines, labels, configs) is data, never markup: every
// string that reaches the HTML report goes through here.
#include <string>
#include <string_view>

namespace xb {

// Escapes & < > " ' for element text and quoted attribute values alike; control characters other
// than tab, newline and carriage return (which HTML forbids) become U+FFFD.
std::string html_escape(std::string_view text);

}  // namespace xb
