// Writing VTK's XML formats: an UnstructuredGrid piece (.vtu) and ParaView's collection of data
// sets over time (.pvd). Format: VTK's "VTK File Formats" (XML formats: UnstructuredGrid,
// binary DataArrays with vtkZLibDataCompressor; the Collection file of vtkPVDReader).
//
// Binary arrays are inline base64, compressed as vtkZLibDataCompressor does: the data cut in
// blocks of 32 KiB, each deflated; the header [number of blocks, block size, size of the last
// block, compressed size of each block] as UInt64 (header_type="UInt64"), little-endian. The
// header and the blocks are two separate base64 runs, as VTK writes them, so that every reader
// of VTK files (VTK and ParaView, meshio, Fluxion's own MeshVTKLoader) reads them. Inline base64
// rather than raw appended data keeps the file well-formed XML (33 % larger before compression).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meshio/vtk_cells.h"

namespace fluxion::internal {

/// One named array of a piece: `components` values per point (or per cell), one after another.
struct VtuArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// Cells in VTK's flat form (connectivity, offsets, types), made once for a mesh whose
/// connectivity does not change while its points move.
struct VtuCells {
  std::vector<std::int64_t> connectivity;
  std::vector<std::int64_t> offsets;  ///< end of each cell in `connectivity`
  std::vector<std::uint8_t> types;
  explicit VtuCells(const VtkCells& cells);
  std::size_t size() const { return types.size(); }
};

/// What changes from state to state in one UnstructuredGrid piece: points and their data.
struct VtuPiece {
  std::vector<double> points;        ///< x y z per point [m]
  std::vector<VtuArray> point_data;  ///< num_points × components values each
  std::vector<VtuArray> cell_data;   ///< one value per cell × components each
};

enum class VtuEncoding {
  kAscii,       ///< numbers as text, in shortest round-trip form
  kZlibBinary,  ///< binary, zlib-compressed, base64 (the default of --vtk)
};

/// The whole .vtu document of `piece` with `cells` (points and data as Float64, connectivity and
/// offsets as Int64, cell types as UInt8).
std::string FormatVtu(const VtuPiece& piece, const VtuCells& cells, VtuEncoding encoding);

/// ParaView's .pvd collection, written in three parts so that a run can append data sets as it
/// goes and leave a complete file whenever it stops: the header, one line per data set, the
/// footer.
std::string PvdHeader();
/// One data set: `file` (relative to the .pvd's folder) holds `part` of the time series at `time`;
/// `name` names that part in ParaView's pipeline browser.
std::string PvdDataSet(double time, int part, std::string_view name, std::string_view file);
std::string PvdFooter();

}  // namespace fluxion::internal
