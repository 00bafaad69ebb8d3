#include "cli/native_flag_words.hpp"

namespace xb {

const FlagWords& native_flag_words() {
  static const FlagWords words{.flags = {
      // copy
      {"copy.size", "-s"}, {"copy.blocks", "-n"}, {"copy.iterations", "-i"}, {"copy.devices", "-d"},
      {"copy.fragments", "-f"}, {"copy.streams", "--streams"}, {"copy.engine", "--engine"},
      {"copy.odirect_dir", "--odirect-dir"}, {"copy.first_device", "--first-device"},
      // io, and the file sets of storage it makes
      {"files.directory", "-D"}, {"files.file", "-f"},
      {"io.threads", "-w"}, {"io.size", "-s"}, {"io.io_size", "-i"}, {"io.engine", "--engine"},
      {"io.queue_depth", "--qd"}, {"io.seconds", "-T"}, {"io.transfer", "--xfer"}, {"io.device", "--device"},
      {"io.offset", "--offset"}, {"io.read_percent", "--read-percent"}, {"io.alignment", "--align"},
      {"io.numa", "--numa"}, {"io.verify", "--verify"}, {"io.buffered", "--buffered"},
      // kv
      {"kv.store", "--store"}, {"kv.blocks", "-n"}, {"kv.block", "--block"}, {"kv.threads", "-w"},
      {"kv.passes", "--passes"}, {"kv.buffered", "--buffered"}, {"kv.verify", "--verify"}, {"kv.device", "--device"},
      {"kv.engine", "--engine"},
      // p2p (fleet spells src and dst --device)
      {"p2p.size", "-s"}, {"p2p.executions", "--times"}, {"p2p.warmup", "--warmup"}, {"p2p.src", "--src"},
      {"p2p.dst", "--dst"}, {"p2p.devices", "--devices"}, {"p2p.engine", "--engine"},
      {"p2p.peer_ip", "--ip"}, {"p2p.host_ip", "--hip"},
      // fleet (its size and executions are p2p's)
      {"fleet.max_pairs", "--max-pairs"}, {"fleet.threshold", "--threshold"},
      {"fleet.matrix_max_ranks", "--matrix-max-ranks"},
      // link
      {"link.size", "-s"}, {"link.step", "--step"}, {"link.iterations", "-i"}, {"link.warmup", "-x"},
      {"link.memory", "-M"}, {"link.check", "--check"}, {"link.pingpong", "--pingpong"}, {"link.transport", "--transport"},
      // xfer
      {"xfer.control_client", "--peer"}, {"xfer.control_server", "--listen"}, {"xfer.data", "--data-port"},
      {"xfer.transport", "--transport"}, {"xfer.mode", "--mode"}, {"xfer.op", "--op"}, {"xfer.block", "--block"},
      {"xfer.total", "--total"}, {"xfer.pool_chunk", "--pool-chunk"}, {"xfer.wait", "--wait"},
      {"xfer.iters", "--iters"}, {"xfer.device", "--device"}, {"xfer.clients", "--clients"}, {"xfer.warmup", "--warmup"},
      // coll: only sharp_coll_test drives it; its flags are the tester's
      {"coll.size", "-s"}, {"coll.iterations", "-i"}, {"coll.warmup", "-x"}, {"coll.outstanding", "-N"},
      {"coll.collectives", "-c"},
  }, .values = {}};
  return words;
}

}  // namespace xb
