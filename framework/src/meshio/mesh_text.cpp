#include "meshio/mesh_text.h"

#include "core/text_parsing.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

bool MeshText::NextLine(std::string_view& line) {
  if (position_ >= bytes_.size()) return false;
  std::size_t end = bytes_.find('\n', position_);
  if (end == std::string_view::npos) end = bytes_.size();
  line = bytes_.substr(position_, end - position_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Past the newline, or at the end when the last line has none (remaining() is then 0, not a
  // wrapped-around count that would let CheckCount accept any count).
  position_ = end < bytes_.size() ? end + 1 : bytes_.size();
  ++line_;
  return true;
}

std::string_view MeshText::RequireLine(const std::string& what) {
  std::string_view line;
  while (NextLine(line))
    if (line.find_first_not_of(" \t") != std::string_view::npos) return line;
  Fail("the file ends early (expected " + what + ")");
}

void MeshText::Fail(const std::string& message) const { FailAt(line_, message); }

void MeshText::FailAt(int line, const std::string& message) const {
  throw ConfigError("file", file_ + ":" + std::to_string(std::max(line, 1)) + ": " + message);
}

std::vector<std::string_view> MeshText::Words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  while (true) {
    start = line.find_first_not_of(" \t\v\f\r", start);
    if (start == std::string_view::npos) return words;
    const std::size_t end = std::min(line.find_first_of(" \t\v\f\r", start), line.size());
    words.push_back(line.substr(start, end - start));
    start = end;
  }
}

double MeshText::Real(std::string_view word, const char* what) const {
  std::string why;
  const std::optional<double> value = ParseReal(word, &why);
  if (!value)
    Fail(std::string(what) + " '" + Shown(word) + "' is " + why + " (expected a finite number)");
  return *value;
}

long MeshText::Count(std::string_view word, const char* what) const {
  std::string why;
  const std::optional<long> value = ParseInteger(word, &why);
  if (!value || *value < 0)
    Fail(std::string(what) + " '" + Shown(word) + "' is not a whole number ≥ 0");
  return *value;
}

void MeshText::CheckCount(long count, std::size_t min_bytes, const char* what) const {
  if (count < 0 ||
      static_cast<std::size_t>(count) > remaining() / std::max<std::size_t>(min_bytes, 1))
    Fail(std::string(what) + " " + std::to_string(count) + " is more than the " +
         std::to_string(remaining()) + " bytes left can hold (expected the real count)");
}

}  // namespace fluxion::internal
