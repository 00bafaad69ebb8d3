// `dev-sandbox aio …`: dump the blocks, load them back, print both tables; the blocks this run
// wrote are removed again (also after an error) unless --keep.
#include <optional>
#include <ostream>

#include "core/cleanup.hpp"
#include "core/plan_error.hpp"
#include "dialects/dev_sandbox_aio.hpp"
#include "jobs/kv/kv_job.hpp"
#include "storage/kv_store.hpp"

namespace xb {
namespace {

// Removes the run's blocks when the run ends, however it ends: an error unwinds to the destructor,
// and a SIGINT/SIGTERM/SIGHUP reaches core/cleanup's handler, which sweeps the same blocks (and the
// temporary each thread has in flight). With --keep the blocks are the user's.
class BlockRemover {
 public:
  BlockRemover(const KvPlan& plan, bool active) : plan_(plan), active_(active) {
    if (active_) on_signal_.emplace(sweep_kv_blocks, plan_.store.string(), plan_.blocks);
  }
  ~BlockRemover() {
    if (active_) remove_kv_blocks(plan_.store, plan_.blocks);
  }
  BlockRemover(const BlockRemover&) = delete;
  BlockRemover& operator=(const BlockRemover&) = delete;

 private:
  const KvPlan& plan_;
  bool active_;
  std::optional<ScopedCleanup> on_signal_;
};

}  // namespace

int run_dev_sandbox_aio(const std::vector<std::string>& args, CommandContext& ctx) {
  DevSandboxAioRequest req = parse_dev_sandbox_aio(args);
  // --device-id: the load goes on into that device's memory, the preferred backend's.
  Backend* backend = nullptr;
  if (req.load.target == KvTarget::device) {
    backend = &ctx.registry.preferred();
    req.load.backend = std::string(backend->name());
  }
  // The load's own check (every block present) can only pass after the dump; its flags are the
  // dump's, which this validates before anything is written.
  worded_by(req.words, [&] { validate_kv_plan(req.dump, nullptr); });
  BlockRemover remover(req.dump, !req.keep);
  JobContext dump{.registry = &ctx.registry};
  ctx.out << render_dev_sandbox_aio(run(req.dump, dump).front());
  ctx.out.flush();
  JobContext load{.registry = &ctx.registry, .backend = backend};
  ctx.out << render_dev_sandbox_aio(run(req.load, load).front());
  return kExitOk;
}

}  // namespace xb
