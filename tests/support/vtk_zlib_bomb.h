// A hostile .vtu for the tests of issue 25 (item 2): a zlib "bomb", a small file whose
// vtkZLibDataCompressor points inflate to many megabytes of zeros. Built in memory by the test
// (no large fixture in the repository); link ZLIB::ZLIB.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fluxion::testing {

/// Base64 of `bytes`, padded.
inline std::string Base64Of(const std::vector<unsigned char>& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  for (std::size_t at = 0; at < bytes.size(); at += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - at);
    std::uint32_t triple = std::uint32_t(bytes[at]) << 16;
    if (n > 1) triple |= std::uint32_t(bytes[at + 1]) << 8;
    if (n > 2) triple |= bytes[at + 2];
    for (std::size_t k = 0; k < 4; ++k)
      text += k <= n ? kDigits[(triple >> (18 - 6 * k)) & 63] : '=';
  }
  return text;
}

/// A binary DataArray's text (UInt64 little-endian headers): `total` zero bytes in zlib blocks
/// of 32 KiB, every block the same few compressed bytes.
inline std::string ZlibZeros(std::uint64_t total) {
  constexpr std::uint64_t kBlock = 32768;
  const std::vector<unsigned char> zeros(kBlock, 0);
  std::vector<unsigned char> block(compressBound(kBlock));
  uLongf size = static_cast<uLongf>(block.size());
  compress2(block.data(), &size, zeros.data(), kBlock, 9);
  block.resize(size);
  const std::uint64_t blocks = (total + kBlock - 1) / kBlock;
  std::vector<unsigned char> bytes;
  const auto put = [&](std::uint64_t value) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<unsigned char>(value >> (8 * k)));
  };
  // The last block is a full one too (last size 0): `total` is rounded up to whole blocks.
  put(blocks);
  put(kBlock);
  put(0);
  for (std::uint64_t b = 0; b < blocks; ++b) put(size);
  for (std::uint64_t b = 0; b < blocks; ++b) bytes.insert(bytes.end(), block.begin(), block.end());
  return Base64Of(bytes);
}

/// A .vtu of `points` points, all at the origin, and no cells, its Float64 coordinates
/// compressed: about 1/1000 of the 24 bytes per point it inflates to. `points` × 24 should be a
/// multiple of 32 KiB (e.g. a multiple of 4096 points).
inline std::string ZlibBombVtu(std::uint64_t points) {
  return R"(<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" )"
         R"(header_type="UInt64" compressor="vtkZLibDataCompressor">
<UnstructuredGrid><Piece NumberOfPoints=")" +
         std::to_string(points) + R"(" NumberOfCells="0">
<Points><DataArray type="Float64" NumberOfComponents="3" format="binary">)" +
         ZlibZeros(points * 24) + R"(</DataArray></Points>
</Piece></UnstructuredGrid></VTKFile>
)";
}

}  // namespace fluxion::testing
