// libFuzzer target for TransformPosition's matrix files (meshio/affine_transform_reader.cpp;
// the input's first byte chooses .tfm, .trm or .txt, the rest is the file). A finding is a crash or
// sanitizer report, an exception that is not fluxion's ConfigError, an error message that is not
// one line naming the file, or a matrix entry that is not finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "fluxion/errors.h"
#include "meshio/affine_transform_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fluxion::internal::AffineTransformFormat;
  const AffineTransformFormat formats[3] = {
      AffineTransformFormat::kTfm, AffineTransformFormat::kTrm, AffineTransformFormat::kMatrix};
  if (size == 0) return 0;
  const AffineTransformFormat format = formats[data[0] % 3];
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    for (const double entry : fluxion::internal::ReadAffineTransform(bytes, "m.tfm", format))
      if (!std::isfinite(entry)) {
        std::fprintf(stderr, "transform_fuzz: FINDING: a matrix entry is not finite\n");
        std::abort();
      }
  } catch (const fluxion::ConfigError& error) {
    const std::string message = error.what();
    bool one_line = message.rfind("m.tfm:", 0) == 0;
    for (const char c : message)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) one_line = false;
    if (!one_line) {
      std::fprintf(stderr, "transform_fuzz: FINDING: not a one-line error: [%s]\n",
                   message.c_str());
      std::abort();
    }
  } catch (const std::exception& other) {
    std::fprintf(stderr, "transform_fuzz: FINDING: unexpected exception: %s\n", other.what());
    std::abort();
  }
  return 0;
}
