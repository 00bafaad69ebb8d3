// The session's map of device memory by address (backends/acl/acl_session): what a copy's direction
// and destMax are read from. Exact bounds: the allocation's first and last bytes are its device's,
// the byte past its end and the byte before its start are not, and bytes_after counts to the end.
#include <gtest/gtest.h>

#include <cstddef>

#include "backends/acl/acl_session.hpp"

namespace xb::acl {
namespace {

TEST(AclSession, DeviceMemoryIsOwnedFromItsFirstByteToItsLastAndNoFurther) {
  AclSession session(XB_ACL_STANDIN "/lib64/libascendcl.so");
  // Addresses only: the session never touches the memory it maps.
  alignas(64) static std::byte arena[4096];
  std::byte* const a = arena + 1024;
  session.note_device_memory(a, 100, 3);
  session.note_device_memory(a + 100, 50, 5);  // the next allocation starts where the first ends

  const auto first = session.device_memory_owner(a);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->device, 3);
  EXPECT_EQ(first->bytes_after, 100u);
  const auto last = session.device_memory_owner(a + 99);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->device, 3);
  EXPECT_EQ(last->bytes_after, 1u);
  const auto next = session.device_memory_owner(a + 100);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->device, 5);
  EXPECT_EQ(next->bytes_after, 50u);
  EXPECT_FALSE(session.device_memory_owner(a + 150));  // one past the second's end
  EXPECT_FALSE(session.device_memory_owner(a - 1));

  session.forget_device_memory(a + 100);
  EXPECT_FALSE(session.device_memory_owner(a + 100));  // one past the first's end, now nobody's
  EXPECT_EQ(session.device_memory_owner(a + 50)->bytes_after, 50u);
}

}  // namespace
}  // namespace xb::acl
