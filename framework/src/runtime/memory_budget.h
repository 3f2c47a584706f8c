// How much memory a scene may use: the machine's available memory (MemAvailable, a cgroup's
// limit) and the user's limit (LoadOptions::memory_limit, scene-runner --memory-limit). The
// scene builder compares its estimate of a scene's memory with it before allocating.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fluxion::internal {

/// The memory a scene may use [bytes], and where that number comes from (for messages).
struct MemoryBudget {
  double bytes = 0.0;  ///< +∞ when nothing is known
  std::string source;  ///< e.g. "--memory-limit", "MemAvailable in /proc/meminfo"
};

/// The budget now: the smallest of `user_limit` (0: none), MemAvailable in /proc/meminfo, what
/// the process's cgroup (v2 memory.max − memory.current, v1 memory.limit_in_bytes −
/// memory.usage_in_bytes, over its ancestors) still allows, and what the address-space limit
/// (ulimit -v, RLIMIT_AS) leaves beyond what the process maps already.
MemoryBudget CurrentMemoryBudget(std::uint64_t user_limit);

/// MemAvailable of a /proc/meminfo text [bytes], if it has one.
std::optional<std::uint64_t> ParseMemAvailable(std::string_view meminfo);

/// What a cgroup still allows from its limit file's text ("max" or bytes) and its usage's; no
/// value when unlimited or unreadable.
std::optional<std::uint64_t> CgroupRoom(std::string_view limit_text, std::string_view usage_text);

/// "1.5 GiB", "12 MiB", "800 bytes": a size for messages, three significant digits.
std::string FormatBytes(double bytes);

}  // namespace fluxion::internal
