#include "scene/python_origins.h"

#include <charconv>
#include <optional>

#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

bool HasControlByte(std::string_view text) { return EscapeControl(text) != text; }

std::optional<std::pair<std::string, int>> OriginOf(std::string_view text) {
  constexpr std::string_view kOpen = "<!--python ", kClose = "-->";
  if (!text.ends_with(kClose)) return std::nullopt;
  const std::size_t open = text.rfind(kOpen);
  if (open == std::string_view::npos || open + kOpen.size() > text.size() - kClose.size())
    return std::nullopt;
  const std::string_view origin =
      text.substr(open + kOpen.size(), text.size() - kClose.size() - open - kOpen.size());
  const std::size_t colon = origin.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || HasControlByte(origin.substr(0, colon)))
    return std::nullopt;
  const std::string_view digits = origin.substr(colon + 1);
  int number = 0;
  const auto [end, failure] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (failure != std::errc() || end != digits.data() + digits.size() || number < 1)
    return std::nullopt;
  return std::pair<std::string, int>{std::string(origin.substr(0, colon)), number};
}

}  // namespace

std::unordered_map<int, std::pair<std::string, int>> PythonOrigins(std::string_view xml) {
  std::unordered_map<int, std::pair<std::string, int>> origins;
  int line = 1;
  for (std::size_t start = 0; start <= xml.size(); ++line) {
    const std::size_t end = std::min(xml.find('\n', start), xml.size());
    std::string_view text = xml.substr(start, end - start);
    if (text.ends_with('\r')) text.remove_suffix(1);
    if (auto origin = OriginOf(text)) origins.emplace(line, std::move(*origin));
    start = end + 1;
  }
  return origins;
}

}  // namespace fluxion::internal
