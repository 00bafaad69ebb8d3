// The jobs' typed configuration records (issue 16, item 7): what a job writes into a case's
// `config` and what renderers and dialects read back. Each record survives the trip through JSON
// with its optional fields set and unset (unset: no key), a required key missing is an error naming
// it, and the record read from a real copy case writes back exactly the case's config (no key of
// the job's lost or added).
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "backends/cpu/cpu_backend.hpp"
#include "jobs/coll/coll_config.hpp"
#include "jobs/copy/copy_config.hpp"
#include "jobs/copy/copy_job.hpp"
#include "jobs/fleet/fleet_config.hpp"
#include "jobs/io/io_config.hpp"
#include "jobs/kv/kv_config.hpp"
#include "jobs/link/link_config.hpp"
#include "jobs/p2p/p2p_config.hpp"
#include "jobs/xfer/xfer_config.hpp"
#include "core/json_record.hpp"
#include "support/run_job.hpp"

namespace xb {
namespace {

template <typename Record>
Record through_json(const Record& r) {
  const nlohmann::json j = r;
  return j.get<Record>();
}

template <typename Record>
std::string missing_key_error(const Record& r, const std::string& key) {
  nlohmann::json j = r;
  j.erase(key);
  try {
    (void)j.get<Record>();
  } catch (const nlohmann::json::exception& e) {
    return e.what();
  }
  return "<read without " + key + ">";
}

TEST(ConfigRecords, CollWithAndWithoutItsOptionalFields) {
  CollConfig c;
  c.collective = "iallreduce";
  c.size = 4096;
  c.block_bytes = 4096;
  c.count = 1024;
  c.datatype = "int32";
  c.ranks = 4;
  c.group = "world";
  c.iterations = 100;
  c.warmup = 10;
  c.line_up = true;
  c.outstanding = 128;
  c.checked = false;
  const CollConfig back = through_json(c);
  EXPECT_EQ(back.collective, "iallreduce");
  EXPECT_EQ(back.size, 4096u);
  EXPECT_EQ(back.ranks, 4);
  EXPECT_EQ(back.outstanding, 128u);
  EXPECT_EQ(back.checked, false);
  EXPECT_FALSE(back.root.has_value());
  EXPECT_FALSE(back.net_device.has_value());
  const nlohmann::json j = c;
  EXPECT_FALSE(j.contains("root")) << j.dump();
  EXPECT_FALSE(j.contains("net_device")) << j.dump();
  EXPECT_EQ(j.at("path"), "MPI");
  c.net_device = "mlx5_0:1";  // -d, for judging
  EXPECT_EQ(through_json(c).net_device, "mlx5_0:1");
  EXPECT_NE(missing_key_error(c, "ranks").find("'ranks'"), std::string::npos) << missing_key_error(c, "ranks");
}

TEST(ConfigRecords, XferClientAndServerKeepTheirRoles) {
  XferClientConfig c;
  c.peer = "127.0.0.1:20000";
  c.block = 1 << 20;
  c.total = 8 << 20;
  c.transfers = 8;
  c.verified = true;
  c.transport = {"tcp", "1.0", "tcp", ""};
  c.mover = {{"kind", "direct"}};
  c.timing = "host clock: each pass";
  c.server_index = 1;
  c.servers = 2;
  const XferClientConfig back = through_json(c);
  EXPECT_EQ(back.block, 1u << 20);
  EXPECT_EQ(back.transport.name, "tcp");
  EXPECT_EQ(back.mover, c.mover);
  EXPECT_EQ(back.timing, "host clock: each pass");
  EXPECT_EQ(back.server_index, 1u);
  EXPECT_FALSE(back.device_path.has_value());
  EXPECT_EQ(nlohmann::json(c).at("role"), "client");

  XferServerConfig s;
  s.client = "10.0.0.1:4000";
  s.transport = {"ucx", "1.13.1", "posix/memory", "UCX_TLS=shm"};
  EXPECT_EQ(through_json(s).client, "10.0.0.1:4000");
  EXPECT_EQ(through_json(s).transport.lanes, "posix/memory");
  // A server's case is not a client's: read as one, it says so.
  EXPECT_THROW((void)nlohmann::json(s).get<XferClientConfig>(), std::invalid_argument);
}

TEST(ConfigRecords, P2pPairMatrixAndAcrossNodes) {
  P2pConfig c;
  c.backend = "cpu";
  c.direction = "unidirectional";
  c.size_bytes = 1 << 20;
  c.executions = 10;
  c.timing = "device events";
  c.from = "cpu::device::0";
  c.to = "cpu::device::1";
  P2pConfig back = through_json(c);
  EXPECT_EQ(back.from, "cpu::device::0");
  EXPECT_FALSE(back.matrix.has_value());
  EXPECT_FALSE(back.from_rank.has_value());
  c.scope = "nodes";
  c.launcher = "mpi";
  c.from_rank = 2;
  c.to_rank = 3;
  c.from_device = 0;
  c.to_device = 1;
  c.from_node = "a";
  c.to_node = "b";
  back = through_json(c);
  EXPECT_EQ(back.to_rank, 3);
  EXPECT_EQ(back.to_node, "b");
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(c));
  EXPECT_NE(missing_key_error(c, "size_bytes").find("'size_bytes'"), std::string::npos);
}

TEST(ConfigRecords, FleetMatrixListsItsFlaggedLinks) {
  FleetMatrixConfig c;
  c.ranks = 3;
  c.threshold = 0.8;
  c.matrix = {{"rows", {"a", "b", "c"}}};
  c.flagged = {{0, 2, "rank 0 (a)", "rank 2 (c)", 1.5, 0.4, "below 0.8 x the median link (3 GB/s)"}};
  const FleetMatrixConfig back = through_json(c);
  ASSERT_EQ(back.flagged.size(), 1u);
  EXPECT_EQ(back.flagged[0].to, "rank 2 (c)");
  EXPECT_DOUBLE_EQ(back.flagged[0].of_median, 0.4);
  EXPECT_EQ(back.flagged[0].why, "below 0.8 x the median link (3 GB/s)");
  EXPECT_TRUE(back.cleared.empty());
  // Issue 17's fields travel too, and a result written before them still reads (with defaults).
  c.nodes = {{2, "rank 2 (c)", 4, 4, 1.2}};
  c.floor_rule = "fleet bandwidth ≥ 0.85 × ceiling";
  c.retests = 2;
  const FleetMatrixConfig again = through_json(c);
  ASSERT_EQ(again.nodes.size(), 1u);
  EXPECT_EQ(again.nodes[0].name, "rank 2 (c)");
  EXPECT_EQ(again.nodes[0].slow, 4u);
  EXPECT_EQ(again.retests, 2);
  nlohmann::json old = c;
  for (const char* key : {"nodes", "links_named", "every_link_slow", "floor_rule", "retests", "rank_info"}) old.erase(key);
  old["flagged"][0].erase("why");
  const auto before = old.get<FleetMatrixConfig>();
  EXPECT_TRUE(before.nodes.empty());
  EXPECT_EQ(before.flagged[0].why, "");
  EXPECT_EQ(before.floor_rule, "");
}

// io's unset seeds and shares are nulls (the keys have always been there); a device transfer's
// fields sit beside the others and come back as the device part.
TEST(ConfigRecords, IoWithAndWithoutADevice) {
  IoConfig c;
  c.file = "/data/f";
  c.files = {"/data/f"};
  c.threads = 4;
  c.rw = "randrw";
  c.io_size = 1 << 20;
  c.io_size_min = 4096;
  c.read_percent = 70;
  nlohmann::json j = c;
  EXPECT_TRUE(j.at("order_seed").is_null()) << j.dump();
  EXPECT_TRUE(j.at("numa_node").is_null()) << j.dump();
  EXPECT_FALSE(j.contains("backend")) << j.dump();
  IoConfig back = through_json(c);
  EXPECT_EQ(back.read_percent, 70u);
  EXPECT_FALSE(back.order_seed.has_value());
  EXPECT_FALSE(back.device.has_value());
  EXPECT_TRUE(back.sizes_drawn());
  c.transfer = "gpu-direct";
  c.device = IoDeviceConfig{"cuda", "NVIDIA H200", 1, "cufile", "compat mode", false, std::nullopt};
  j = c;
  EXPECT_EQ(j.at("device"), 1);
  EXPECT_EQ(j.at("direct_storage_mode"), "compat mode");
  EXPECT_FALSE(j.contains("bounce_buffers_per_thread")) << j.dump();
  back = through_json(c);
  ASSERT_TRUE(back.device.has_value());
  EXPECT_EQ(back.device->direct_storage_mode, "compat mode");
  EXPECT_EQ(back.device->registered_buffers, false);
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_NE(missing_key_error(c, "data_set_requested").find("'data_set_requested'"), std::string::npos);
}

TEST(ConfigRecords, KvDumpAndLoadIntoADevice) {
  KvConfig d;
  d.op = "dump";
  d.blocks = 24;
  d.sync = "end";
  KvConfig back = through_json(d);
  EXPECT_TRUE(back.dump());
  EXPECT_EQ(back.sync, "end");
  EXPECT_FALSE(back.to.has_value());
  KvConfig l;
  l.op = "load";
  l.to = "device";
  l.verify = true;
  l.device = KvDeviceConfig{"cpu", 0, "memcpy", "one slot per thread"};
  back = through_json(l);
  EXPECT_FALSE(back.dump());
  ASSERT_TRUE(back.device.has_value());
  EXPECT_EQ(back.device->engine, "memcpy");
  EXPECT_EQ(nlohmann::json(l).at("backend"), "cpu");
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(l));
  EXPECT_NE(missing_key_error(l, "block_bytes").find("'block_bytes'"), std::string::npos);
}

TEST(ConfigRecords, LinkKeepsItsSweepEndsAndTransport) {
  LinkConfig c;
  c.size = 4096;
  c.sweep = {4, 1 << 20, 2};
  c.src = {"host", "host buffer"};
  c.dst = {"cuda", "cpu::device::0"};
  c.peer = "127.0.0.1:18515";
  c.transport = {"ucx", "1.13.1", "posix/memory", "UCX_TLS=shm"};
  c.check = true;
  c.check_method = "pattern";
  const nlohmann::json j = c;
  EXPECT_EQ(j.at("sweep").at("max"), 1 << 20);
  EXPECT_EQ(j.at("dst").at("description"), "cpu::device::0");
  EXPECT_FALSE(j.contains("device_path")) << j.dump();
  const LinkConfig back = through_json(c);
  EXPECT_EQ(back.size, 4096u);
  EXPECT_EQ(back.sweep.step, 2u);
  EXPECT_EQ(back.dst.memory, "cuda");
  EXPECT_EQ(back.transport.lanes, "posix/memory");
  EXPECT_EQ(back.check_method, "pattern");
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_NE(missing_key_error(c, "peer").find("'peer'"), std::string::npos);
}

// The record read from the copy job's own case writes back the same JSON: every key the job
// writes is a field of the record.
TEST(ConfigRecords, ACopyCaseIsItsRecordExactly) {
  auto backend = make_cpu_backend();
  CopyPlan p;
  p.block_bytes = 16 * 1024;
  p.blocks = 4;
  p.iterations = 2;
  p.warmup = 1;
  p.devices = 1;
  p.streams = 1;
  const CaseResult r = test::run_one(p, &*backend);
  const CopyConfig config = r.config.get<CopyConfig>();
  EXPECT_EQ(config.block_bytes, 16u * 1024);
  EXPECT_EQ(config.blocks, 4u);
  EXPECT_EQ(nlohmann::json(config), r.config) << r.config.dump();
}

// The field list's own rules (core/json_record.hpp), on a record made for them: an unset optional
// is no key, an unset OrNull a null, a Beside record's fields sit beside the owner's and it reads
// back only where its key is; one that would not write its key is refused, not lost on reading.
struct SideRecord {
  std::string name;
  int side = 0;
};
XB_JSON_RECORD(SideRecord, name, side)
struct KeylessSide {
  std::string name;
};
XB_JSON_RECORD(KeylessSide, name)
struct OwnerRecord {
  std::string kind;
  std::optional<int> maybe;
  OrNull<int> always;
  Beside<SideRecord> side;
  Beside<KeylessSide> keyless;
};
XB_JSON_RECORD(OwnerRecord, kind, maybe, always, side, keyless)

TEST(ConfigRecords, AFieldListWritesEachKindOfField) {
  OwnerRecord r;
  r.kind = "k";
  nlohmann::json j = r;
  EXPECT_EQ(j, nlohmann::json({{"kind", "k"}, {"always", nullptr}})) << j.dump();
  OwnerRecord back = through_json(r);
  EXPECT_FALSE(back.maybe.has_value());
  EXPECT_FALSE(back.always.has_value());
  EXPECT_FALSE(back.side.has_value());
  r.maybe = 3;
  r.always = 4;
  r.side = SideRecord{"s", 7};
  j = r;
  EXPECT_EQ(j, nlohmann::json({{"kind", "k"}, {"maybe", 3}, {"always", 4}, {"name", "s"}, {"side", 7}})) << j.dump();
  back = through_json(r);
  EXPECT_EQ(back.maybe, 3);
  EXPECT_EQ(back.always, 4);
  ASSERT_TRUE(back.side.has_value());
  EXPECT_EQ(back.side->name, "s");
  EXPECT_EQ(back.side->side, 7);
  EXPECT_NE(missing_key_error(r, "kind").find("'kind'"), std::string::npos);
  r.keyless = KeylessSide{"n"};
  EXPECT_THROW((void)nlohmann::json(r), std::logic_error);
}

}  // namespace
}  // namespace xb
