// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshVTKLoader.cpp (LegacyVTKReader,
// doLoad). Kept as SOFA keeps them: POLYDATA polygons (4 vertices: a quad, more: a fan of
// triangles); UNSTRUCTURED_GRID cells of type 3 (line), 5 (triangle), 6 (triangle strip, with
// SOFA's alternating orientation), 7 (polygon, as a fan), 8 (pixel, as the quad 0 1 3 2),
// 9 (quad), 10 (tetrahedron), 11 (voxel, as the hexahedron 0 1 3 2 4 5 7 6), 12 (hexahedron).
// LINES become SOFA polylines, not edges: skipped, as the other cell types.
// A file whose first line starts with "<?xml" or "<VTKFile" is VTK XML (vtk_xml_reader.cpp).
// Deviations: BINARY legacy files are refused with a clear error (not yet read); a vertex index
// beyond the points is an error (SOFA skips the polygon).
#include <algorithm>

#include "core/text_parsing.h"
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"
#include "meshio/vtk_cells.h"

namespace fluxion::internal {

namespace {

// The file's words one by one across lines, for VTK's free-form number lists.
class Tokens {
 public:
  explicit Tokens(MeshText& text) : text_(text) {}
  std::string_view Next(const char* what) {
    while (index_ >= words_.size()) {
      std::string_view line;
      if (!text_.NextLine(line))
        text_.Fail(std::string("the file ends early (expected ") + what + ")");
      words_ = MeshText::Words(line);
      index_ = 0;
    }
    return words_[index_++];
  }
  bool AtLineStart() const { return index_ >= words_.size(); }

 private:
  MeshText& text_;
  std::vector<std::string_view> words_;
  std::size_t index_ = 0;
};

class VtkReader {
 public:
  VtkReader(std::string_view bytes, const std::string& file, MeshNotes& notes)
      : text_(bytes, file), tokens_(text_), notes_(notes) {}

  Topology Read() {
    const std::string_view header = text_.RequireLine("# vtk DataFile Version …");
    if (!header.starts_with("# vtk DataFile"))
      text_.Fail("the file starts with '" + Shown(header, 40) +
                 "' (expected '# vtk DataFile Version')");
    text_.RequireLine("a title line");
    const std::string_view encoding = text_.RequireLine("ASCII or BINARY");
    if (encoding.starts_with("BINARY"))
      text_.Fail("a BINARY legacy VTK file (expected ASCII: not read yet)");
    if (!encoding.starts_with("ASCII"))
      text_.Fail("'" + Shown(encoding, 40) + "' (expected ASCII)");
    const std::vector<std::string_view> dataset = MeshText::Words(text_.RequireLine("DATASET"));
    if (dataset.size() < 2 || dataset[0] != "DATASET" ||
        (dataset[1] != "POLYDATA" && dataset[1] != "UNSTRUCTURED_GRID"))
      text_.Fail("expected DATASET POLYDATA or DATASET UNSTRUCTURED_GRID (as SOFA reads)");
    std::vector<Index> cells, types;
    while (true) {
      std::string_view line;
      if (!text_.NextLine(line)) break;
      const std::vector<std::string_view> words = MeshText::Words(line);
      if (words.empty()) continue;
      const std::string_view keyword = words[0];
      if (!tokens_.AtLineStart())
        text_.Fail("more numbers than the section before declared (expected a keyword line)");
      if (keyword == "POINTS") {
        const long n = Header(words, 3, "POINTS n type");
        text_.CheckCount(n, 6, "point count");
        for (long i = 0; i < n; ++i) mesh_.points.push_back({Real("x"), Real("y"), Real("z")});
      } else if (keyword == "POLYGONS") {
        const long n = Header(words, 3, "POLYGONS n size");
        const long size = text_.Count(words[2], "POLYGONS size");
        text_.CheckCount(size, 2, "POLYGONS size");
        ReadPolygons(n, size);
      } else if (keyword == "CELLS") {
        const long n = Header(words, 3, "CELLS n size");
        const long size = text_.Count(words[2], "CELLS size");
        text_.CheckCount(size, 2, "CELLS size");
        for (long i = 0; i < size; ++i)
          cells.push_back(Index(text_.Count(tokens_.Next("a cell number"), "cell number")));
        cell_count_ = n;
      } else if (keyword == "CELL_TYPES") {
        const long n = Header(words, 2, "CELL_TYPES n");
        text_.CheckCount(n, 2, "cell count");
        for (long i = 0; i < n; ++i)
          types.push_back(Index(text_.Count(tokens_.Next("a cell type"), "cell type")));
      } else if (keyword == "LINES" || keyword == "VERTICES" || keyword == "TRIANGLE_STRIPS") {
        const long n = Header(words, 3, "n size");
        const long size = text_.Count(words[2], "size");
        text_.CheckCount(size, 2, "size");
        for (long i = 0; i < size; ++i) tokens_.Next("a number");
        notes_.skipped_elements += n;
      } else if (keyword == "POINT_DATA" || keyword == "CELL_DATA" || keyword == "FIELD" ||
                 keyword == "METADATA") {
        break;  // per-point and per-cell data: nothing mechanical
      } else {
        text_.Fail("'" + Shown(keyword, 40) + "' (expected POINTS, POLYGONS, CELLS or CELL_TYPES)");
      }
    }
    if (!types.empty() || !cells.empty()) AddCells(cells, types);
    return std::move(mesh_);
  }

 private:
  long Header(const std::vector<std::string_view>& words, std::size_t size, const char* form) {
    if (words.size() < size) text_.Fail(std::string("expected '") + form + "'");
    return text_.Count(words[1], "count");
  }
  double Real(const char* what) { return text_.Real(tokens_.Next(what), what); }
  Index Vertex() {
    const long v = text_.Count(tokens_.Next("a vertex index"), "vertex index");
    if (v >= static_cast<long>(mesh_.points.size()))
      text_.Fail("vertex " + std::to_string(v) + " does not exist (the file has " +
                 std::to_string(mesh_.points.size()) + " points)");
    return v;
  }

  // `left`: the numbers the POLYGONS header declares, each polygon's count and vertices.
  void ReadPolygons(long n, long left) {
    std::vector<Index> v;
    for (long p = 0; p < n; ++p) {
      const long size = text_.Count(tokens_.Next("a polygon size"), "polygon size");
      left -= 1 + size;
      if (size > 0 && left < 0)
        text_.Fail("polygon " + std::to_string(p) + " has more vertices than POLYGONS declares");
      v.clear();
      for (long k = 0; k < size; ++k) v.push_back(Vertex());
      if (size == 4)
        mesh_.quads.push_back({v[0], v[1], v[2], v[3]});
      else
        for (long j = 2; j < size; ++j)
          mesh_.triangles.push_back(
              {v[0], v[static_cast<std::size_t>(j - 1)], v[static_cast<std::size_t>(j)]});
    }
  }

  void AddCells(const std::vector<Index>& cells, const std::vector<Index>& types) {
    if (static_cast<long>(types.size()) != cell_count_)
      text_.Fail("CELL_TYPES has " + std::to_string(types.size()) + " types for " +
                 std::to_string(cell_count_) + " cells (expected one per cell)");
    std::size_t i = 0;
    for (const Index type : types) {
      if (i >= cells.size()) text_.Fail("CELLS holds fewer cells than CELL_TYPES");
      const std::size_t nv = static_cast<std::size_t>(cells[i++]);
      if (nv > cells.size() - i) text_.Fail("CELLS is shorter than its cells' vertex counts");
      const std::string problem =
          AddVtkCell(static_cast<long>(type), std::span(cells).subspan(i, nv),
                     static_cast<Index>(mesh_.points.size()), mesh_, notes_);
      if (!problem.empty()) text_.Fail(problem);
      i += nv;
    }
  }

  MeshText text_;
  Tokens tokens_;
  MeshNotes& notes_;
  Topology mesh_;
  long cell_count_ = 0;
};

}  // namespace

std::string AddVtkCell(long type, std::span<const Index> v, Index points, Topology& mesh,
                       MeshNotes& notes) {
  const std::size_t nv = v.size();
  const auto need = [&](std::size_t count) {
    return nv < count ? "a cell of type " + std::to_string(type) + " with " + std::to_string(nv) +
                            " vertices (expected " + std::to_string(count) + ")"
                      : std::string();
  };
  // The vertices the cell uses exist.
  const auto check = [&](std::size_t used) -> std::string {
    for (std::size_t k = 0; k < used; ++k)
      if (v[k] < 0 || v[k] >= points)
        return "cell vertex " + std::to_string(v[k]) + " does not exist (the file has " +
               std::to_string(points) + " points)";
    return {};
  };
  std::size_t count = 0;  // vertices the kept element needs
  switch (type) {
    case 3:
      count = 2;
      break;
    case 5:
      count = 3;
      break;
    case 6:
    case 7:
      count = nv;
      break;
    case 8:
    case 9:
    case 10:
      count = 4;
      break;
    case 11:
    case 12:
      count = 8;
      break;
    default:
      ++notes.skipped_elements;
      return {};
  }
  if (std::string problem = need(count); !problem.empty()) return problem;
  if (std::string problem = check(count); !problem.empty()) return problem;
  switch (type) {
    case 3:
      mesh.edges.push_back({v[0], v[1]});
      break;
    case 5:
      mesh.triangles.push_back({v[0], v[1], v[2]});
      break;
    case 6:
      for (std::size_t j = 0; j + 2 < nv; ++j) {
        if (j & 1)
          mesh.triangles.push_back({v[j], v[j + 1], v[j + 2]});
        else
          mesh.triangles.push_back({v[j], v[j + 2], v[j + 1]});
      }
      break;
    case 7:
      for (std::size_t j = 2; j < nv; ++j) mesh.triangles.push_back({v[0], v[j - 1], v[j]});
      break;
    case 8:
      mesh.quads.push_back({v[0], v[1], v[3], v[2]});
      break;
    case 9:
      mesh.quads.push_back({v[0], v[1], v[2], v[3]});
      break;
    case 10:
      mesh.tetrahedra.push_back({v[0], v[1], v[2], v[3]});
      break;
    case 11:
      mesh.hexahedra.push_back({v[0], v[1], v[3], v[2], v[4], v[5], v[7], v[6]});
      break;
    default:
      mesh.hexahedra.push_back({v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]});
      break;
  }
  return {};
}

Topology ReadVtkMesh(std::string_view bytes, const std::string& file, MeshNotes& notes,
                     const MeshBudget& budget) {
  // SOFA tells the formats apart by the first line: "<?xml" or "<VTKFile" is VTK XML.
  std::string_view start = bytes.substr(0, 512);
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);  // a UTF-8 byte order mark
  start.remove_prefix(std::min(start.size(), start.find_first_not_of(" \t\r\n")));
  if (start.starts_with("<?xml") || start.starts_with("<VTKFile"))
    return ReadVtkXmlMesh(bytes, file, notes, budget);
  return VtkReader(bytes, file, notes).Read();
}

}  // namespace fluxion::internal
