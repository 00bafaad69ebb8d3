#!/usr/bin/env bash
# The one job contract (issue 16, item 3; src/jobs/job_context.hpp): every job's entry is
# `run(const XPlan& plan, JobContext& ctx)`, and the commands and dialects reach a job only through
# it. This check fails
#   - when a job folder under src/jobs (endpoint holds shared parts, not a job) has no *_job.hpp
#     declaring such a run(), and
#   - when src/cli, src/dialects or src/report calls a run_* function a src/jobs header declares
#     (a job's side entry, e.g. xfer's run_xfer_client in jobs/xfer/xfer_sides.hpp, is the job's
#     own business), or includes an internal header of the xfer job.
# Usage: job_contract_check.sh SRC_DIR
set -euo pipefail
src=${1:?usage: job_contract_check.sh SRC_DIR}
[ -d "$src/jobs" ] || { echo "job_contract_check.sh: $src has no jobs/ folder" >&2; exit 2; }

bad=0
for dir in "$src"/jobs/*/; do
  job=$(basename "$dir")
  [ "$job" = endpoint ] && continue
  if ! grep -qsE '\brun\(const [A-Za-z0-9]+Plan& plan, JobContext& ctx\);' "$dir"/*_job.hpp; then
    echo "job contract: jobs/$job: no *_job.hpp declares run(const XPlan& plan, JobContext& ctx)"
    bad=1
  fi
done

mapfile -t entries < <(grep -rhoE '\brun_[a-z0-9_]+\(' "$src/jobs" --include='*.hpp' | sed 's/($//' | sort -u)
callers=()
for d in cli dialects report; do [ -d "$src/$d" ] && callers+=("$d"); done
if ((${#callers[@]})); then
  for name in "${entries[@]}"; do
    while IFS= read -r hit; do
      echo "job contract: $hit: calls $name (reach the job through run(plan, JobContext))"
      bad=1
    done < <(cd "$src" && grep -rnE "\\b$name\\(" "${callers[@]}" --include='*.cpp' --include='*.hpp' | cut -d: -f1,2)
  done
  while IFS= read -r hit; do
    echo "job contract: $hit: includes the xfer job's internal header (include jobs/xfer/xfer_job.hpp)"
    bad=1
  done < <(cd "$src" && grep -rn '"jobs/xfer/xfer_sides.hpp"' "${callers[@]}" | cut -d: -f1,2)
fi
((bad)) && exit 1
echo "job contract: every job is run(plan, JobContext); ${#entries[@]} side entries stay inside src/jobs"
