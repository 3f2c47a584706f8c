#include "meshio/vtu_writer.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the VTU writer declares byte_order=\"LittleEndian\" and writes memory as it is");

// vtkZLibDataCompressor's default block size.
constexpr std::size_t kBlockBytes = 32768;

void AppendBase64(std::string& out, const unsigned char* data, std::size_t size) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t group = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) |
                                std::uint32_t{data[i + 2]};
    out += kDigits[(group >> 18) & 63];
    out += kDigits[(group >> 12) & 63];
    out += kDigits[(group >> 6) & 63];
    out += kDigits[group & 63];
  }
  if (i < size) {
    // The last one or two bytes, padded with '='.
    std::uint32_t group = std::uint32_t{data[i]} << 16;
    if (i + 1 < size) group |= std::uint32_t{data[i + 1]} << 8;
    out += kDigits[(group >> 18) & 63];
    out += kDigits[(group >> 12) & 63];
    out += i + 1 < size ? kDigits[(group >> 6) & 63] : '=';
    out += '=';
  }
}

// `size` bytes as vtkZLibDataCompressor lays them out (see the header's comment), in base64.
void AppendCompressed(std::string& out, const unsigned char* data, std::size_t size) {
  const std::size_t blocks = (size + kBlockBytes - 1) / kBlockBytes;
  std::vector<std::uint64_t> header = {blocks, kBlockBytes,
                                       size % kBlockBytes == 0 ? kBlockBytes : size % kBlockBytes};
  std::vector<unsigned char> compressed;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t begin = b * kBlockBytes;
    const std::size_t length = std::min(kBlockBytes, size - begin);
    const std::size_t at = compressed.size();
    uLongf room = compressBound(static_cast<uLong>(length));
    compressed.resize(at + room);
    // Fastest deflate: floating-point state compresses little at any level; speed matters more.
    FLUXION_DEMAND(compress2(compressed.data() + at, &room, data + begin,
                             static_cast<uLong>(length), Z_BEST_SPEED) == Z_OK);
    compressed.resize(at + room);
    header.push_back(room);
  }
  AppendBase64(out, reinterpret_cast<const unsigned char*>(header.data()),
               header.size() * sizeof(std::uint64_t));
  AppendBase64(out, compressed.data(), compressed.size());
}

// One DataArray element with its values (T: double, std::int64_t or std::uint8_t).
template <class T>
void AppendArray(std::string& out, const char* type, std::string_view name, int components,
                 const std::vector<T>& values, VtuEncoding encoding) {
  out += "        <DataArray type=\"";
  out += type;
  out += '"';
  if (!name.empty()) {
    out += " Name=\"";
    out += EscapeXml(name);
    out += '"';
  }
  if (components > 1) out += " NumberOfComponents=\"" + std::to_string(components) + "\"";
  // An empty array is written as text whatever the encoding: a compressed one would have no
  // block, which some readers (meshio) cannot take.
  if (encoding == VtuEncoding::kAscii || values.empty()) {
    out += " format=\"ascii\">\n          ";
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (k > 0) out += ' ';
      if constexpr (std::is_floating_point_v<T>)
        AppendReal(out, values[k]);
      else
        out += std::to_string(static_cast<long long>(values[k]));
    }
  } else {
    out += " format=\"binary\">\n          ";
    AppendCompressed(out, reinterpret_cast<const unsigned char*>(values.data()),
                     values.size() * sizeof(T));
  }
  out += "\n        </DataArray>\n";
}

void AppendData(std::string& out, const char* tag, const std::vector<VtuArray>& arrays,
                VtuEncoding encoding) {
  if (arrays.empty()) return;
  out += "      <";
  out += tag;
  out += ">\n";
  for (const VtuArray& array : arrays)
    AppendArray(out, "Float64", array.name, array.components, array.values, encoding);
  out += "      </";
  out += tag;
  out += ">\n";
}

}  // namespace

VtuCells::VtuCells(const VtkCells& cells) {
  offsets.reserve(cells.cells.size());
  for (const auto& cell : cells.cells) {
    connectivity.insert(connectivity.end(), cell.begin(), cell.end());
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  }
  types.assign(cells.types.begin(), cells.types.end());
}

std::string FormatVtu(const VtuPiece& piece, const VtuCells& cells, VtuEncoding encoding) {
  const std::size_t num_points = piece.points.size() / 3;
  const std::size_t num_cells = cells.size();
  std::string out =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\"";
  if (encoding == VtuEncoding::kZlibBinary) out += " compressor=\"vtkZLibDataCompressor\"";
  out += ">\n  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"" + std::to_string(num_points) + "\" NumberOfCells=\"" +
         std::to_string(num_cells) + "\">\n";
  AppendData(out, "PointData", piece.point_data, encoding);
  AppendData(out, "CellData", piece.cell_data, encoding);
  out += "      <Points>\n";
  AppendArray(out, "Float64", "", 3, piece.points, encoding);
  out += "      </Points>\n      <Cells>\n";
  AppendArray(out, "Int64", "connectivity", 1, cells.connectivity, encoding);
  AppendArray(out, "Int64", "offsets", 1, cells.offsets, encoding);
  AppendArray(out, "UInt8", "types", 1, cells.types, encoding);
  out +=
      "      </Cells>\n"
      "    </Piece>\n"
      "  </UnstructuredGrid>\n"
      "</VTKFile>\n";
  return out;
}

std::string PvdHeader() {
  return "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
         "  <Collection>\n";
}

std::string PvdDataSet(double time, int part, std::string_view name, std::string_view file) {
  std::string out = "    <DataSet timestep=\"";
  AppendReal(out, time);
  out += "\" group=\"\" part=\"" + std::to_string(part) + "\" name=\"" + EscapeXml(name) +
         "\" file=\"" + EscapeXml(file) + "\"/>\n";
  return out;
}

std::string PvdFooter() { return "  </Collection>\n</VTKFile>\n"; }

}  // namespace fluxion::internal
