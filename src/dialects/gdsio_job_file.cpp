// gdsio's job files (`gdsio rw-sample.gdsio`): fio-like ini text, a [global] section and one
// section per job. Each key is one of gdsio's options under the name the job files give it; a job is
// its section's keys on top of the global ones, turned into gdsio's command line and parsed by
// parse_gdsio, so a job file and the options it stands for can never mean different things.
#include <fmt/format.h>
#include <sys/stat.h>

#include <cctype>
#include <map>
#include <stdexcept>

#include "core/error.hpp"
#include "dialects/gdsio.hpp"

namespace xb {
namespace {

// The job file's keys and the options they stand for. Switches (-V, -p, ...) take 0 or 1.
struct JobKey {
  std::string_view key, flag;
  bool is_switch = false;
};
constexpr JobKey kKeys[] = {
    {"xfer_type", "-x"},          {"rw", "-I"},                {"bs", "-i"},
    {"size", "-s"},               {"runtime", "-T"},           {"do_verify", "-V", true},
    {"enable_nvlinks", "-p", true}, {"skip_bufregister", "-b", true}, {"random_seed", "-k"},
    {"fill_random", "-R", true},  {"refill_buffer", "-F", true}, {"unaligned_random", "-U", true},
    {"start_offset", "-o"},       {"mem_type", "-m"},          {"url", "-P"},
    {"alignment", "-a"},          {"mixed_rd_wr_percentage", "-M"}, {"batch_size", "-B"},
    {"numa_node", "-n"},          {"gpu_dev_id", "-d"},        {"num_threads", "-w"},
    {"directory", "-D"},          {"filename", "-f"},          {"o_direct", "-O"},
};
constexpr std::string_view kRw[] = {"read", "write", "randread", "randwrite"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

const JobKey* find_key(std::string_view key) {
  for (const auto& k : kKeys) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

std::string known_keys() {
  std::string s;
  for (const auto& k : kKeys) s += (s.empty() ? "" : ", ") + std::string(k.key);
  return s;
}

struct Section {
  std::string name;
  int line = 0;
  std::map<std::string, std::pair<std::string, int>> values;  // key -> value, line
};

// One job's command line: the options its keys stand for.
std::vector<std::string> job_args(const Section& global, const Section& job, const std::string& file) {
  std::map<std::string, std::pair<std::string, int>> merged = global.values;
  for (const auto& [k, v] : job.values) merged[k] = v;
  std::vector<std::string> args;
  for (const auto& [key, value_line] : merged) {
    const auto& [value, line] = value_line;
    if (key == "name") continue;
    const JobKey* k = find_key(key);
    const auto where = fmt::format("{} line {}", file, line);
    if (k->is_switch) {
      if (value != "0" && value != "1") throw UsageError(fmt::format("{}: {}={}: expected 0 or 1", where, key, value));
      if (value == "1") args.emplace_back(k->flag);
      continue;
    }
    std::string v = value;
    if (key == "rw") {
      std::size_t i = 0;
      while (i < std::size(kRw) && kRw[i] != value) ++i;
      if (i == std::size(kRw)) {
        throw UsageError(fmt::format("{}: rw={}: expected read, write, randread or randwrite", where, value));
      }
      v = std::to_string(i);
    }
    // "1MB" in job files: gdsio's sizes are binary either way.
    if ((key == "bs" || key == "size" || key == "start_offset") && v.size() > 2 && (v.ends_with("B") || v.ends_with("b")) &&
        std::isalpha(static_cast<unsigned char>(v[v.size() - 2]))) {
      v.pop_back();
    }
    args.emplace_back(k->flag);
    args.push_back(v);
  }
  return args;
}

}  // namespace

bool is_gdsio_job_file(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0].empty() || args[0][0] == '-') return false;
  struct stat st {};
  return stat(args[0].c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<GdsioRequest> parse_gdsio_job_file(std::string_view text, const std::string& name) {
  Section global{"global", 0, {}};
  std::vector<Section> jobs;
  Section* current = nullptr;
  int line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const auto where = fmt::format("{} line {}", name, line_no);
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) throw UsageError(fmt::format("{}: '{}': expected [SECTION]", where, line));
      const std::string section(trim(line.substr(1, line.size() - 2)));
      if (section == "global") {
        current = &global;
      } else {
        for (const auto& j : jobs) {
          if (j.name == section) throw UsageError(fmt::format("{}: [{}]: a second job of that name", where, section));
        }
        jobs.push_back({section, line_no, {}});
        current = &jobs.back();
      }
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) throw UsageError(fmt::format("{}: '{}': expected KEY=VALUE", where, line));
    const std::string key(trim(line.substr(0, eq)));
    const std::string value(trim(line.substr(eq + 1)));
    if (current == nullptr) throw UsageError(fmt::format("{}: {}: outside any section ([global] or [jobN])", where, key));
    if (key != "name" && find_key(key) == nullptr) {
      throw UsageError(fmt::format("{}: unknown key '{}' (known: name, {})", where, key, known_keys()));
    }
    if (value.empty()) throw UsageError(fmt::format("{}: {}: an empty value", where, key));
    current->values[key] = {value, line_no};
  }
  if (jobs.empty()) throw UsageError(fmt::format("{}: no job section (one [jobN] per job)", name));
  std::vector<GdsioRequest> requests;
  for (const auto& job : jobs) {
    try {
      requests.push_back(parse_gdsio(job_args(global, job, name)));
    } catch (const UsageError& e) {
      // Worded with the options; say which job they came from.
      throw UsageError(fmt::format("{} [{}] (line {}): {}", name, job.name, job.line, e.what()));
    }
  }
  return requests;
}

}  // namespace xb
