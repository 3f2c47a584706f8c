#include "python_scene.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <utility>
#include <vector>

namespace fluxion::runner {

namespace {

// The start of every line of `text`, so that each error's line is found without rescanning the
// text (a scene may have as many errors as lines).
std::vector<std::size_t> LineStarts(const std::string& text) {
  std::vector<std::size_t> starts = {0};
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
    starts.push_back(at + 1);
  return starts;
}

bool HasControlByte(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

}  // namespace

PythonScene::PythonScene(std::string scene, std::string xml)
    : scene_(std::move(scene)), xml_(std::move(xml)), line_starts_(LineStarts(xml_)) {}

Simulation PythonScene::Load(const Host& host, const LoadOptions& options) const {
  try {
    return host.LoadString(xml_, scene_, options);
  } catch (const SceneError& error) {
    // Each problem at the Python call that made its element.
    std::vector<SceneDiagnostic> located;
    for (SceneDiagnostic diagnostic : error.diagnostics()) {
      if (diagnostic.file == scene_ && diagnostic.line > 0)
        if (std::optional<Origin> origin = OriginOf(diagnostic.line)) {
          diagnostic.file = std::move(origin->file);
          diagnostic.line = origin->line;
        }
      located.push_back(std::move(diagnostic));
    }
    throw SceneError(std::move(located));
  }
}

std::string PythonScene::controllers_message() const {
  std::string message = xml_.substr(std::min(xml_.size(), kControllersMark.size()));
  message = message.substr(0, message.find('\n'));
  return HasControlByte(message) ? scene_ + ": the scene has Python controllers" : message;
}

std::string PythonScene::Where(int line) const {
  const std::optional<Origin> origin = OriginOf(line);
  return origin ? origin->file + ":" + std::to_string(origin->line)
                : scene_ + ":" + std::to_string(line);
}

std::optional<PythonScene::Origin> PythonScene::OriginOf(int line) const {
  if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size()) return std::nullopt;
  const std::size_t start = line_starts_[static_cast<std::size_t>(line) - 1];
  const std::size_t end = std::min(xml_.find('\n', start), xml_.size());
  const std::string_view text = std::string_view(xml_).substr(start, end - start);
  // scene_graph.py ends each element's line with <!--python FILE:LINE-->. The text is only
  // trusted as far as it parses: a file name with a control byte, or a line number that is not
  // a positive int, leaves the problem at its XML line.
  constexpr std::string_view kOpen = "<!--python ", kClose = "-->";
  const std::size_t open = text.rfind(kOpen);
  if (open == std::string_view::npos || !text.ends_with(kClose) ||
      open + kOpen.size() > text.size() - kClose.size())
    return std::nullopt;
  const std::string_view origin =
      text.substr(open + kOpen.size(), text.size() - kClose.size() - open - kOpen.size());
  const std::size_t colon = origin.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || HasControlByte(origin.substr(0, colon)))
    return std::nullopt;
  const std::string_view digits = origin.substr(colon + 1);
  int number = 0;
  const auto [end_of_number, failure] =
      std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (failure != std::errc() || end_of_number != digits.data() + digits.size() || number < 1)
    return std::nullopt;
  return Origin{std::string(origin.substr(0, colon)), number};
}

}  // namespace fluxion::runner
