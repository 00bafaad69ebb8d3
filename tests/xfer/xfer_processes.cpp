#include "xfer_processes.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace xb::test {
namespace {

std::pair<std::string, std::vector<std::string>> command_line(const Place& where, const std::vector<std::string>& command) {
  if (where.ns == nullptr) return {command.front(), {command.begin() + 1, command.end()}};
  return {where.ns->program(), where.ns->args_to_run(where.side, command)};
}

}  // namespace

xbtest::Process start_in(const Place& where, const std::vector<std::string>& command) {
  auto [program, args] = command_line(where, command);
  return xbtest::start_binary(program, args);
}

xbtest::RunResult run_in(const Place& where, const std::vector<std::string>& command) {
  auto [program, args] = command_line(where, command);
  return xbtest::run_binary(program, args);
}

StartedServer start_xfer_server(const Place& where, const std::string& host, const std::filesystem::path& dir,
                                const std::vector<std::string>& args) {
  const std::filesystem::path ready = dir / "ready";
  std::vector<std::string> command{XB_BINARY, "xfer", "server", "--listen", host + ":0", "--ready-file", ready.string()};
  command.insert(command.end(), args.begin(), args.end());
  xbtest::Process p = start_in(where, command);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream f(ready);
    std::string key, control, data;
    if (f >> key >> control >> key >> data) return StartedServer{std::move(p), control, data};
    if (auto ended = p.wait_for(std::chrono::milliseconds(20))) {
      ADD_FAILURE() << "the server ended before listening: " << ended->describe();
      throw std::runtime_error("server did not start");
    }
  }
  ADD_FAILURE() << "the server wrote no ready file in 30 s";
  throw std::runtime_error("server did not start");
}

bool is_one_line(const std::string& text) {
  return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

}  // namespace xb::test
