// Strict readers of the mesh formats SOFA's mesh loaders read, as SOFA reads them: which elements
// they keep, in which order, with which vertex numbering. Each parses bytes already in memory (the
// loader component reads the file under the input policy) and throws ConfigError with a one-line
// "FILE:LINE: what is wrong (what was expected)" for a malformed file.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/topology.h"

namespace fluxion::internal {

/// What a reader found besides the mesh: element kinds SOFA's loader skips too.
struct MeshNotes {
  long skipped_elements = 0;      ///< elements of a kind SOFA ignores (points, prisms, …)
  long degenerate_triangles = 0;  ///< STL facets whose merged points are not all different
};

/// What the memory budget leaves for one mesh file. A reader that decodes or inflates (VTK XML)
/// checks every size the file declares against it before allocating: the points, and the values
/// of each array (at most kMeshValuesPerPoint per point the budget allows, all arrays together).
struct MeshBudget {
  Index max_points = std::numeric_limits<Index>::max();  ///< points the scene may still add
  /// "at most N points in the whole scene, for a memory budget of …", for messages.
  std::string text = "no limit";
};
/// Values a mesh file's arrays may decode to per point of its budget: a tetrahedral mesh holds
/// about 5 cells per point, 30 values with offsets and types; 64 leaves room, and at 8 bytes a
/// value stays near the 480 bytes the builder charges per point.
inline constexpr double kMeshValuesPerPoint = 64;

/// Wavefront OBJ, as SOFA's MeshOBJLoader (without handleSeams): `v` gives points, `l` and `f`
/// elements with 1-based or negative (relative) vertex indices (`v/vt/vn` forms: the first
/// number); 2 vertices make an edge (smaller index first), 4 a quad unless `triangulate`, 3 or
/// more otherwise a fan of triangles (v0, v_{j−1}, v_j). Other statements are ignored. With
/// `handle_seams`, SOFA's handleSeams: a vertex is split into one per (texture coordinate,
/// normal) pair the faces give it.
Topology ReadObjMesh(std::string_view bytes, const std::string& file, bool triangulate,
                     bool handle_seams, MeshNotes& notes);

/// Gmsh MSH, as SOFA's MeshGmshLoader: format 1 ($NOD/$ELM), 2 and 4 (ASCII); lines, triangles,
/// quads, tetrahedra, hexahedra and the first-order part of second-order lines, triangles and
/// tetrahedra (whose edges are added to the edges, as SOFA does). Points and other kinds skipped.
Topology ReadGmshMesh(std::string_view bytes, const std::string& file, MeshNotes& notes);

/// VTK legacy (ASCII; DATASET POLYDATA or UNSTRUCTURED_GRID), as SOFA's MeshVTKLoader: lines,
/// triangles, triangle strips and polygons (as triangles), pixels and quads, tetrahedra, voxels
/// and hexahedra. A file that starts with "<?xml" or "<VTKFile" is read by ReadVtkXmlMesh.
Topology ReadVtkMesh(std::string_view bytes, const std::string& file, MeshNotes& notes,
                     const MeshBudget& budget);

/// VTK XML (.vtu UnstructuredGrid, .vtp PolyData), as SOFA's MeshVTKLoader (XMLVTKReader): one
/// Piece; DataArrays in ascii or inline base64 binary (raw or vtkZLibDataCompressor, UInt32 or
/// UInt64 headers, either byte order); unstructured cells as the legacy reader keeps them,
/// polygons of 2, 3 and 4 vertices as edges, triangles and quads (longer ones are SOFA polylines:
/// skipped). Appended data, other compressors and other dataset types are refused. Every count
/// and every array's declared size is checked against `budget` before it is decoded, and zlib
/// blocks are inflated in bounded chunks: a small file cannot claim more memory than it may use.
Topology ReadVtkXmlMesh(std::string_view bytes, const std::string& file, MeshNotes& notes,
                        const MeshBudget& budget);

/// STL, ASCII or binary, as SOFA's MeshSTLLoader: binary unless the first word is "solid" (or
/// `force_binary`); points of all facets merged when exactly equal (numbered by first
/// appearance), one triangle per facet; binary facets with repeated points dropped (counted in
/// `notes.degenerate_triangles`). Binary errors name a byte offset ("FILE: byte N: …").
Topology ReadStlMesh(std::string_view bytes, const std::string& file, bool force_binary,
                     std::size_t header_size, MeshNotes& notes);

/// Object File Format (.off), as SOFA's MeshOffLoader: "OFF", the counts "V F E", V points, F
/// faces "n i0 …" (0-based); triangles and quads kept in file order, other faces skipped (counted
/// in `notes.skipped_elements`). Comment lines start with '#'.
Topology ReadOffMesh(std::string_view bytes, const std::string& file, MeshNotes& notes);

/// A SOFA .trian file's mesh and what MeshTrianLoader publishes besides it.
struct TrianMesh {
  Topology mesh;  ///< points and triangles, in file order
  /// Per triangle, the triangle across the edge opposite each vertex (−1: none). trian only.
  std::vector<std::array<Index, 3>> neighbours;
  /// Edges on the border (neighbour −1), in file order. trian only.
  std::vector<std::array<Index, 2>> border_edges;
  /// Triangles with at least one border edge, each once. trian only.
  std::vector<Index> border_triangles;
};

/// SOFA's .trian (`trian2` false: vertices, then triangles with their neighbours) or trian2
/// (13 header lines, then vertices, normals and triangles, each list after a keyword and its
/// count) format, as MeshTrianLoader reads it: words separated by any whitespace.
TrianMesh ReadTrianMesh(std::string_view bytes, const std::string& file, bool trian2);

/// The spheres of a SOFA `.sph` file, in file order.
struct SphereList {
  std::vector<std::array<double, 3>> centres;
  std::vector<double> radii;
  long unknown_statements = 0;  ///< lines of another keyword (SOFA warns and skips them)
};

/// SOFA's sphere file (`.sph`, SphereLoader): a first line "sph 1.0", then `sphe INDEX X Y Z R`
/// statements (one sphere each, in file order; INDEX is not used), `nums N` (the count, unused)
/// and `#` comments. Another keyword's line is skipped and counted.
SphereList ReadSphereFile(std::string_view bytes, const std::string& file);

}  // namespace fluxion::internal
