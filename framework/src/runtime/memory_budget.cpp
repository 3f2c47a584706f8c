#include "runtime/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "fluxion/host.h"

namespace fluxion {

std::optional<std::uint64_t> ParseMemorySize(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0)
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0)
    text.remove_suffix(1);
  double number = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data() || !std::isfinite(number) || number <= 0.0)
    return std::nullopt;
  std::string unit(end, text.data() + text.size());
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // Binary multiples, as free(1), ulimit and cgroups count: K = 1024 bytes.
  static const std::vector<std::pair<std::string, double>> kUnits = {
      {"", 1.0},       {"B", 1.0},     {"K", 0x1p10},   {"KB", 0x1p10}, {"KIB", 0x1p10},
      {"M", 0x1p20},   {"MB", 0x1p20}, {"MIB", 0x1p20}, {"G", 0x1p30},  {"GB", 0x1p30},
      {"GIB", 0x1p30}, {"T", 0x1p40},  {"TB", 0x1p40},  {"TIB", 0x1p40}};
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    const double bytes = std::floor(number * factor);
    if (bytes < 1.0 || bytes >= 0x1p63) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
  }
  return std::nullopt;
}

}  // namespace fluxion

namespace fluxion::internal {

namespace {

std::optional<std::string> ReadSmallFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::uint64_t> ParseUnsigned(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0)
    text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The room the process's cgroups leave: the tightest over the cgroup and its ancestors, for the
// v2 hierarchy ("0::/path") and v1's memory controller ("N:memory:/path").
std::optional<std::uint64_t> CgroupMemoryRoom() {
  const std::optional<std::string> cgroups = ReadSmallFile("/proc/self/cgroup");
  if (!cgroups) return std::nullopt;
  std::optional<std::uint64_t> room;
  const auto tighten = [&](const std::filesystem::path& root, std::string path, const char* limit,
                           const char* usage) {
    while (true) {
      const std::filesystem::path folder = root / std::filesystem::path(path).relative_path();
      const auto limit_text = ReadSmallFile(folder / limit);
      const auto usage_text = ReadSmallFile(folder / usage);
      if (limit_text && usage_text)
        if (const auto here = CgroupRoom(*limit_text, *usage_text))
          room = room ? std::min(*room, *here) : *here;
      if (path.empty() || path == "/") break;
      path = std::filesystem::path(path).parent_path().string();
    }
  };
  std::istringstream lines(*cgroups);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t first = line.find(':');
    const std::size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty())
      tighten("/sys/fs/cgroup", path, "memory.max", "memory.current");
    else if (controllers == "memory")
      tighten("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes");
  }
  return room;
}

// What ulimit -v (RLIMIT_AS) still allows: the limit minus the address space the process maps
// now (the first field of /proc/self/statm, in pages). Past it every allocation fails, whatever
// the machine has free.
std::optional<std::uint64_t> AddressSpaceRoom() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const std::optional<std::string> statm = ReadSmallFile("/proc/self/statm");
  const long page = ::sysconf(_SC_PAGESIZE);
  if (!statm || page <= 0) return std::nullopt;
  const std::optional<std::uint64_t> pages = ParseUnsigned(statm->substr(0, statm->find(' ')));
  if (!pages) return std::nullopt;
  const std::uint64_t mapped = *pages * static_cast<std::uint64_t>(page);
  return limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0;
}

}  // namespace

std::optional<std::uint64_t> ParseMemAvailable(std::string_view meminfo) {
  constexpr std::string_view kKey = "MemAvailable:";
  const std::size_t at = meminfo.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = meminfo.substr(at + kKey.size());
  rest = rest.substr(0, rest.find('\n'));
  std::istringstream fields{std::string(rest)};
  std::uint64_t kib = 0;
  std::string unit;
  if (!(fields >> kib >> unit) || unit != "kB") return std::nullopt;
  return kib * 1024;
}

std::optional<std::uint64_t> CgroupRoom(std::string_view limit_text, std::string_view usage_text) {
  const std::optional<std::uint64_t> limit = ParseUnsigned(limit_text);
  const std::optional<std::uint64_t> usage = ParseUnsigned(usage_text);
  // "max" (v2) or v1's "no limit" (the largest multiple of the page size below 2⁶³).
  if (!limit || !usage || *limit >= (std::uint64_t{1} << 62)) return std::nullopt;
  return *limit > *usage ? *limit - *usage : 0;
}

MemoryBudget CurrentMemoryBudget(std::uint64_t user_limit) {
  MemoryBudget budget{std::numeric_limits<double>::infinity(), "no known limit"};
  const auto consider = [&](std::optional<std::uint64_t> bytes, const char* source) {
    if (bytes && static_cast<double>(*bytes) < budget.bytes)
      budget = {static_cast<double>(*bytes), source};
  };
  if (user_limit > 0) consider(user_limit, "the memory limit given, --memory-limit");
  if (const auto meminfo = ReadSmallFile("/proc/meminfo"))
    consider(ParseMemAvailable(*meminfo), "the memory this machine has available, MemAvailable");
  consider(CgroupMemoryRoom(), "what the cgroup memory limit of the process leaves");
  consider(AddressSpaceRoom(), "what the address-space limit leaves, ulimit -v (RLIMIT_AS)");
  return budget;
}

std::string FormatBytes(double bytes) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 6) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  else
    std::snprintf(text, sizeof text,
                  bytes < 10    ? "%.2f %s"
                  : bytes < 100 ? "%.1f %s"
                                : "%.0f %s",
                  bytes, kUnits[unit]);
  return text;
}

}  // namespace fluxion::internal
