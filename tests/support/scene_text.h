// Writing inline test scenes: numbers as XML text that reads back as the same double, and
// "{key}" placeholders filled in, so that scenes written in tests stay readable XML.
#pragma once

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace fluxion::testing {

/// A double as XML text with 17 significant digits: the scene parser reads back exactly the same
/// value (std::to_string keeps 6 decimals only).
inline std::string Exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

/// `text` with every "{key}" replaced by its value.
inline std::string Fill(std::string text,
                        std::initializer_list<std::pair<std::string_view, std::string>> values) {
  for (const auto& [key, value] : values) {
    const std::string placeholder = "{" + std::string(key) + "}";
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

}  // namespace fluxion::testing
