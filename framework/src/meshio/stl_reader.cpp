// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshSTLLoader.cpp (doLoad, readSTL,
// readBinarySTL). As SOFA: a file whose first word is "solid" is ASCII unless `forceBinary`;
// every other file is binary (a header of `headerSize` bytes, a 32-bit little-endian facet count,
// then 50 bytes per facet: normal, 3 vertices as 32-bit floats, a 16-bit attribute). The points of
// all facets are merged when their coordinates are exactly equal, numbered in order of first
// appearance; each facet becomes a triangle of merged points, in file order. Binary facets whose
// merged points are not all different are dropped (SOFA does this for binary files only; ASCII
// keeps them). Normals are not kept (no mechanical effect).
// Deviations: SOFA checks the binary size against an 80-byte header whatever `headerSize` says;
// Fluxion checks it against `headerSize`. An ASCII facet without exactly 3 vertices, a vertex
// without 3 finite numbers and a binary coordinate that is not finite are errors (SOFA reuses the
// previous facet's vertices, writes past its triangle or keeps the NaN). A file starting with
// "solid" that cannot be read as ASCII facets but has the exact size of a binary STL is read as
// binary (binary exporters often begin their header with "solid"; SOFA loads an empty mesh).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

namespace fluxion::internal {

namespace {

// Merges exactly equal points, numbering them in order of first appearance.
class PointMerger {
 public:
  explicit PointMerger(Topology& mesh) : mesh_(mesh) {}
  Index Add(const std::array<double, 3>& x) {
    const auto [found, added] = numbers_.try_emplace(x, static_cast<Index>(mesh_.points.size()));
    if (added) mesh_.points.push_back(x);
    return found->second;
  }

 private:
  Topology& mesh_;
  std::map<std::array<double, 3>, Index> numbers_;  // -0.0 and 0.0 compare equal: merged
};

std::string_view FirstWord(std::string_view bytes) {
  const std::size_t start = bytes.find_first_not_of(" \t\r\n\v\f");
  if (start == std::string_view::npos) return {};
  const std::size_t end = bytes.find_first_of(" \t\r\n\v\f", start);
  return bytes.substr(start, end == std::string_view::npos ? end : end - start);
}

[[noreturn]] void FailAtByte(const std::string& file, std::size_t offset,
                             const std::string& message) {
  throw ConfigError("file", file + ": byte " + std::to_string(offset) + ": " + message);
}

std::uint32_t ReadU32(std::string_view bytes, std::size_t offset) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data() + offset);
  return static_cast<std::uint32_t>(b[0]) | (static_cast<std::uint32_t>(b[1]) << 8) |
         (static_cast<std::uint32_t>(b[2]) << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
}

float ReadF32(std::string_view bytes, std::size_t offset) {
  const std::uint32_t word = ReadU32(bytes, offset);
  float value = 0;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

// The facet count a binary file declares, when its size is exactly that of a binary STL with this
// header size; nullopt otherwise, with the reason in `why`.
std::optional<std::uint32_t> BinaryFacets(std::string_view bytes, std::size_t header,
                                          std::string& why) {
  if (bytes.size() < header + 4) {
    why = "the file has " + std::to_string(bytes.size()) + " bytes (expected a binary STL: a " +
          std::to_string(header) + "-byte header and a 4-byte facet count at least)";
    return std::nullopt;
  }
  const std::uint32_t facets = ReadU32(bytes, header);
  const std::uint64_t expected = header + 4 + 50 * static_cast<std::uint64_t>(facets);
  if (bytes.size() != expected) {
    why = "the file has " + std::to_string(bytes.size()) + " bytes (expected " +
          std::to_string(expected) + " for the " + std::to_string(facets) +
          " facets a binary STL with a " + std::to_string(header) + "-byte header declares)";
    return std::nullopt;
  }
  return facets;
}

Topology ReadBinary(std::string_view bytes, const std::string& file, std::size_t header,
                    MeshNotes& notes) {
  std::string why;
  const std::optional<std::uint32_t> facets = BinaryFacets(bytes, header, why);
  if (!facets) FailAtByte(file, 0, why);
  Topology mesh;
  PointMerger merger(mesh);
  mesh.triangles.reserve(*facets);
  for (std::uint32_t f = 0; f < *facets; ++f) {
    const std::size_t facet = header + 4 + 50 * static_cast<std::size_t>(f);
    std::array<Index, 3> triangle{};
    for (std::size_t j = 0; j < 3; ++j) {
      const std::size_t at = facet + 12 + 12 * j;  // after the normal
      std::array<double, 3> x{};
      for (std::size_t c = 0; c < 3; ++c) {
        x[c] = static_cast<double>(ReadF32(bytes, at + 4 * c));
        if (!std::isfinite(x[c]))
          FailAtByte(file, at + 4 * c,
                     "facet " + std::to_string(f) +
                         " has a coordinate that is not finite "
                         "(expected a finite 32-bit float)");
      }
      triangle[j] = merger.Add(x);
    }
    if (triangle[0] == triangle[1] || triangle[1] == triangle[2] || triangle[0] == triangle[2])
      ++notes.degenerate_triangles;
    else
      mesh.triangles.push_back(triangle);
  }
  return mesh;
}

Topology ReadAscii(std::string_view bytes, const std::string& file) {
  MeshText text(bytes, file);
  Topology mesh;
  PointMerger merger(mesh);
  std::array<Index, 3> triangle{};
  std::size_t vertices = 0;
  bool in_facet = false;
  std::string_view line;
  while (text.NextLine(line)) {
    const std::vector<std::string_view> words = MeshText::Words(line);
    if (words.empty()) continue;
    if (words[0] == "facet") {
      if (in_facet) text.Fail("'facet' inside a facet (expected 'endfacet' first)");
      in_facet = true;
      vertices = 0;
    } else if (words[0] == "vertex") {
      if (!in_facet) text.Fail("'vertex' outside a facet (expected 'facet normal …' first)");
      if (words.size() < 4)
        text.Fail("'vertex' with " + std::to_string(words.size() - 1) +
                  " numbers (expected x y z)");
      if (vertices == 3) text.Fail("a fourth vertex in a facet (expected 3 per facet)");
      triangle[vertices++] = merger.Add(
          {text.Real(words[1], "x"), text.Real(words[2], "y"), text.Real(words[3], "z")});
    } else if (words[0] == "endfacet") {
      if (!in_facet || vertices != 3)
        text.Fail("'endfacet' after " + std::to_string(vertices) +
                  " vertices (expected 3 per facet)");
      mesh.triangles.push_back(triangle);
      in_facet = false;
    } else if (words[0] == "endsolid" || words[0] == "end") {
      break;
    }
    // "solid", "outer loop", "endloop": structure only.
  }
  if (in_facet) text.Fail("the file ends inside a facet (expected 'endfacet')");
  return mesh;
}

}  // namespace

Topology ReadStlMesh(std::string_view bytes, const std::string& file, bool force_binary,
                     std::size_t header_size, MeshNotes& notes) {
  if (force_binary || FirstWord(bytes) != "solid")
    return ReadBinary(bytes, file, header_size, notes);
  // A binary file whose header happens to begin with "solid": no ASCII facet can be read from
  // it, and its size is exactly a binary STL's.
  std::string why;
  const bool binary_size = BinaryFacets(bytes, header_size, why).value_or(0) > 0;
  Topology mesh;
  try {
    mesh = ReadAscii(bytes, file);
  } catch (const ConfigError&) {
    if (!binary_size) throw;
    return ReadBinary(bytes, file, header_size, notes);
  }
  if (mesh.triangles.empty() && binary_size) return ReadBinary(bytes, file, header_size, notes);
  return mesh;
}

}  // namespace fluxion::internal
