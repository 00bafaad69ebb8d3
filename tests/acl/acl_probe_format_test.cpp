// The acl probe's wire format between the probe child and the parent (src/backends/acl/acl_probe):
// what the child read arrives whole, and an answer that cannot be read is a reason, not a crash.
#include <gtest/gtest.h>

#include "backends/acl/acl_probe.hpp"

namespace xb::acl {
namespace {

TEST(AclProbeFormat, ADeviceListRoundTrips) {
  AclProbe p;
  p.library = "/opt/cann/lib64/libascendcl.so";
  p.batch_copies = true;
  p.topology_note = "cards from die-to-die links (aclrtGetDevicesTopo)";
  p.devices.push_back({"Ascend910B3", 64ull << 30, "0000:c1:00.0", -1, 0, 0});
  p.devices.push_back({"Ascend910B3", 64ull << 30, "", -1, 0, 1});
  const AclProbe back = decode_acl_probe(encode_acl_probe(p));
  ASSERT_TRUE(back.support.ok) << back.support.reason;
  EXPECT_EQ(back.library, p.library);
  EXPECT_TRUE(back.batch_copies);
  EXPECT_FALSE(back.host_register);
  EXPECT_EQ(back.topology_note, p.topology_note);
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[0].pci_address, "0000:c1:00.0");
  EXPECT_EQ(back.devices[1].memory_bytes, 64ull << 30);
  EXPECT_EQ(back.devices[1].card, 0);
  EXPECT_EQ(back.devices[1].die, 1);
}

TEST(AclProbeFormat, AFailureKeepsItsReason) {
  AclProbe p;
  p.support = Support::no("aclInit (/x/libascendcl.so) failed: error 507033");
  const AclProbe back = decode_acl_probe(encode_acl_probe(p));
  EXPECT_FALSE(back.support.ok);
  EXPECT_EQ(back.support.reason, "aclInit (/x/libascendcl.so) failed: error 507033");
}

TEST(AclProbeFormat, AnUnreadableOrEmptyAnswerIsAReason) {
  EXPECT_FALSE(decode_acl_probe("").support.ok);
  EXPECT_NE(decode_acl_probe("{\"ok\": true}").support.reason.find("unreadable"), std::string::npos);
  AclProbe none;
  const AclProbe back = decode_acl_probe(encode_acl_probe(none));
  EXPECT_FALSE(back.support.ok);
  EXPECT_EQ(back.support.reason, "the acl probe found no NPU");
}

}  // namespace
}  // namespace xb::acl
