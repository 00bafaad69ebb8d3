#pragma once
namespace xb {
// The program version, from CMake's project(VERSION).
const char* program_version();
}  // namespace xb
