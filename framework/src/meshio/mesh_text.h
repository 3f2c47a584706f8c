// Reading a mesh file's text line by line and word by word, with one-line errors
// "FILE:LINE: what is wrong (what was expected)" (thrown as ConfigError, field "file"). Mesh files
// are untrusted input like scenes: every count a file declares is checked against the bytes that
// remain before anything is allocated for it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/types.h"

namespace fluxion::internal {

class MeshText {
 public:
  MeshText(std::string_view bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}

  /// The next line (without its end of line, '\r' included), false at the end of the file.
  bool NextLine(std::string_view& line);
  /// The next line that is not blank, or fails with "expected `what`" at the end of the file.
  std::string_view RequireLine(const std::string& what);
  int line() const { return line_; }
  const std::string& file() const { return file_; }
  std::size_t remaining() const { return bytes_.size() - position_; }

  [[noreturn]] void Fail(const std::string& message) const;
  [[noreturn]] void FailAt(int line, const std::string& message) const;

  /// Words of `line` (whitespace separated).
  static std::vector<std::string_view> Words(std::string_view line);
  /// A finite double / a whole number ≥ 0 from `word`, or fails naming `what`.
  double Real(std::string_view word, const char* what) const;
  long Count(std::string_view word, const char* what) const;
  /// Fails unless `count` items of at least `min_bytes` each can still fit in the file.
  void CheckCount(long count, std::size_t min_bytes, const char* what) const;

 private:
  std::string_view bytes_;
  std::string file_;
  std::size_t position_ = 0;
  int line_ = 0;
};

}  // namespace fluxion::internal
