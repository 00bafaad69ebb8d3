// The transport table (src/transport/transport_registry.cpp): its names, the default every command
// and dialect takes when none is named, and the refusal of a name this build lacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "transport/transport.hpp"

namespace xb {
namespace {

TEST(TransportRegistry, DefaultIsUcxWhereBuiltElseTcp) {
  const auto names = transport_names();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(std::find(names.begin(), names.end(), "tcp"), names.end()) << "tcp is built everywhere";
  const bool ucx = std::find(names.begin(), names.end(), "ucx") != names.end();
  EXPECT_EQ(default_transport_name(), ucx ? "ucx" : "tcp");
  EXPECT_EQ(default_transport_name(), names.front()) << "the table's first row is the default";
}

TEST(TransportRegistry, AnUnknownNameIsRefusedNamingTheFlagAndTheChoices) {
  try {
    (void)make_transport("verbs");
    ADD_FAILURE() << "verbs made a transport";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--transport: 'verbs' is not a transport of this build"), std::string::npos) << what;
    EXPECT_NE(what.find("tcp"), std::string::npos) << what;
  }
  EXPECT_NE(make_transport("tcp"), nullptr);
}

}  // namespace
}  // namespace xb
