// Source: Sofa/Component/Engine/Transform/src/sofa/component/engine/transform/
//         TransformPosition.inl (getTransfoFromTfm, getTransfoFromTrm, getTransfoFromTxt,
//         selectTransformationMethod).
// Deviations, making what SOFA logs as an error (and then reads on with the identity or zeros) a
// one-line error: a word that is not a number, a .tfm without a Parameters line of 12 numbers, a
// .trm or .txt line of another count than 3 or 4 numbers, more than 4 lines. A line of blanks is
// skipped (SOFA counts it as a line and complains).
#include "meshio/affine_transform_reader.h"

#include "core/text_parsing.h"
#include "meshio/mesh_text.h"

namespace fluxion::internal {

std::optional<AffineTransformFormat> AffineTransformFormatOf(const std::string& name) {
  const auto ends = [&](std::string_view tail) { return name.ends_with(tail); };
  if (ends(".tfm")) return AffineTransformFormat::kTfm;
  if (ends(".trm")) return AffineTransformFormat::kTrm;
  if (ends(".txt") || ends(".xfm")) return AffineTransformFormat::kMatrix;
  return std::nullopt;
}

std::array<double, 16> ReadAffineTransform(std::string_view bytes, const std::string& file,
                                           AffineTransformFormat format) {
  MeshText text(bytes, file);
  std::array<double, 16> m = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // row-major
  std::string_view line;
  if (format == AffineTransformFormat::kTfm) {
    // The first line naming Parameters: its words holding a digit, '.' or '-' are the 12 numbers
    // of ITK's AffineTransform, the 3×3 matrix row by row, then the translation, which SOFA
    // reads backwards (its column is values 11, 10, 9).
    while (text.NextLine(line)) {
      if (line.find("Parameters") == std::string_view::npos) continue;
      std::vector<double> values;
      for (const std::string_view word : MeshText::Words(line))
        if (word.find_first_of("1234567890.-") != std::string_view::npos)
          values.push_back(text.Real(word, "a parameter"));
      if (values.size() != 12)
        text.Fail("the Parameters line has " + std::to_string(values.size()) +
                  " number(s) (expected 12: a 3×3 matrix, then a translation)");
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) m[4 * i + j] = values[static_cast<std::size_t>(3 * i + j)];
        m[4 * i + 3] = values[static_cast<std::size_t>(11 - i)];
      }
      return m;
    }
    text.Fail("has no Parameters line (expected 'Parameters: ' and 12 numbers)");
  }
  // .trm: a translation line, then up to 3 rows of the rotation; .txt/.xfm: up to 4 rows of 4.
  const int width = format == AffineTransformFormat::kTrm ? 3 : 4;
  int rows = 0;
  while (text.NextLine(line)) {
    const std::vector<std::string_view> words = MeshText::Words(line);
    if (words.empty()) continue;
    if (++rows > 4) text.Fail("has more than 4 lines of numbers (expected at most 4)");
    if (static_cast<int>(words.size()) != width)
      text.Fail("a line has " + std::to_string(words.size()) + " word(s) (expected " +
                std::to_string(width) + " numbers)");
    for (int c = 0; c < width; ++c) {
      const double value = text.Real(words[static_cast<std::size_t>(c)], "a matrix entry");
      if (format == AffineTransformFormat::kMatrix)
        m[4 * (rows - 1) + c] = value;
      else if (rows == 1)
        m[4 * c + 3] = value;  // the translation column
      else
        m[4 * (rows - 2) + c] = value;
    }
  }
  return m;
}

}  // namespace fluxion::internal
