// The affine-transformation files of SOFA's TransformPosition (framework/src/meshio/
// affine_transform_reader.cpp): SOFA's example files' formats, with matrices worked by hand, and
// the one-line errors where SOFA logs one and reads on.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "meshio/affine_transform_reader.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;
using ::testing::StartsWith;

TEST(AffineTransformReader, FormatsByExtension) {
  EXPECT_THAT(AffineTransformFormatOf("a/transfo.tfm"), Optional(AffineTransformFormat::kTfm));
  EXPECT_THAT(AffineTransformFormatOf("transfo.trm"), Optional(AffineTransformFormat::kTrm));
  EXPECT_THAT(AffineTransformFormatOf("m.txt"), Optional(AffineTransformFormat::kMatrix));
  EXPECT_THAT(AffineTransformFormatOf("m.xfm"), Optional(AffineTransformFormat::kMatrix));
  EXPECT_EQ(AffineTransformFormatOf("m.mat"), std::nullopt);
}

TEST(AffineTransformReader, TfmRowsThenTheTranslationBackwards) {
  // SOFA's examples/Component/Engine/Transform/transfo.tfm: a rotation of −90° about x
  // ((x, y, z) → (x, z, −y)) and 12th, 11th, 10th numbers (0 2 0) as the translation column.
  const std::array<double, 16> m = ReadAffineTransform(
      "#Insight Transform File V1.0\n#Transform 0\nTransform: AffineTransform_double_3_3\n"
      "Parameters: 1 0 0 0 0 -1 0 1 0 7 2 9\nFixedParameters: 0 0 0\n",
      "t.tfm", AffineTransformFormat::kTfm);
  EXPECT_THAT(m, ElementsAre(1, 0, 0, 9, 0, 0, -1, 2, 0, 1, 0, 7, 0, 0, 0, 1));
}

TEST(AffineTransformReader, TrmTranslationThenRotationRows) {
  const std::array<double, 16> m =
      ReadAffineTransform("1 2 3\n\n0 -1 0\n1 0 0\n0 0 1\n", "t.trm", AffineTransformFormat::kTrm);
  EXPECT_THAT(m, ElementsAre(0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1));
  // Only the translation: the rotation stays the identity, as in SOFA.
  EXPECT_THAT(ReadAffineTransform("4 5 6\n", "t.trm", AffineTransformFormat::kTrm),
              ElementsAre(1, 0, 0, 4, 0, 1, 0, 5, 0, 0, 1, 6, 0, 0, 0, 1));
}

TEST(AffineTransformReader, MatrixRowByRow) {
  EXPECT_THAT(ReadAffineTransform("2 0 0 1\n0 2 0 0\n0 0 2 0\n0 0 0 2\n", "t.xfm",
                                  AffineTransformFormat::kMatrix),
              ElementsAre(2, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2));
}

std::string ErrorOf(const std::string& text, AffineTransformFormat format) {
  try {
    ReadAffineTransform(text, "t", format);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(AffineTransformReader, MalformedFilesAreOneLineErrorsWithTheirLine) {
  using F = AffineTransformFormat;
  EXPECT_THAT(ErrorOf("#x\nTransform: y\n", F::kTfm), StartsWith("t:2: has no Parameters line"));
  EXPECT_THAT(ErrorOf("Parameters: 1 0 0 0 1 0 0 0 1 0 0\n", F::kTfm),
              StartsWith("t:1: the Parameters line has 11 number(s) (expected 12"));
  EXPECT_THAT(ErrorOf("Parameters: 1 0 0 0 1 0 0 0 1 0 0 1e999\n", F::kTfm),
              StartsWith("t:1: a parameter '1e999'"));
  EXPECT_THAT(ErrorOf("1 2\n", F::kTrm), StartsWith("t:1: a line has 2 word(s) (expected 3"));
  EXPECT_THAT(ErrorOf("1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n0 0 0 1\n", F::kMatrix),
              StartsWith("t:5: has more than 4 lines of numbers"));
  EXPECT_THAT(ErrorOf("1 0 0 x\n", F::kMatrix), StartsWith("t:1: a matrix entry 'x'"));
}

}  // namespace
}  // namespace fluxion::internal
