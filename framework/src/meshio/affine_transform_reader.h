// The affine-transformation files SOFA's TransformPosition reads (method="fromFile"), strictly:
// one-line errors "FILE:LINE: what is wrong (what was expected)" thrown as ConfigError.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace fluxion::internal {

enum class AffineTransformFormat {
  kTfm,     ///< ITK's .tfm: a "Parameters:" line of 12 numbers
  kTrm,     ///< .trm: a translation line, then the 3 rows of the rotation matrix
  kMatrix,  ///< .txt and .xfm: the 4 rows of the 4×4 matrix
};

/// The format SOFA reads a file in, by its name's extension; none for another extension.
std::optional<AffineTransformFormat> AffineTransformFormatOf(const std::string& name);

/// The 4×4 matrix (row-major) a file gives, the identity where the file leaves entries out.
std::array<double, 16> ReadAffineTransform(std::string_view bytes, const std::string& file,
                                           AffineTransformFormat format);

}  // namespace fluxion::internal
