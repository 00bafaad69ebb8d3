#pragma once
// What a link or xfer case's bandwidth is, for judging: path kind link or xfer, the message or
// block size, and the ceiling of the network devices that carried it (route_devices: the UCX
// lanes, else the kernel's route to the peer). Judged from this end: the far end's NIC may be the
// narrower one, and a fleet (item 4) sees both ends; a peer on this host has no network ceiling.
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "judge/verdict.hpp"

namespace xb {

JudgedFigure link_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);
JudgedFigure xfer_figure(const CaseResult& c, const std::filesystem::path& sysfs, const std::string& server);

}  // namespace xb
