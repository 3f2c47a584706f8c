// What SOFA's mesh loaders share (Sofa/framework/Core/src/sofa/core/loader/MeshLoader.{h,cpp}):
// the fields of MeshLoader, and the build that reads the file under the input policy, applies
// SOFA's transformation and triangulation, and publishes the mesh as the loader's data
// (position, edges, triangles, quads, tetrahedra, hexahedra) for src="@loader" and
// "@loader.position" links. The format readers are in meshio/.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/component.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

/// Reads a mesh from a file's bytes (throws ConfigError "FILE:LINE: …").
using MeshReader = std::function<Topology(std::string_view bytes, const std::string& file,
                                          const Parameters& parameters, MeshNotes& notes)>;

/// MeshLoader's fields (filename, translation, rotation, scale3d, scale, transformation,
/// triangulate, and SOFA's options Fluxion accepts or refuses), plus `extra`.
ComponentSpec MeshLoaderSpec(std::string name, std::string summary,
                             std::vector<FieldSpec> extra = {});

/// Builds a mesh loader with `read`.
void BuildMeshLoader(BuildContext& context, const MeshReader& read);

/// Builds a procedural mesh creator (SOFA's MeshLoader without a file: StringMeshCreator,
/// GridMeshCreator) from the mesh it made.
void BuildMeshCreator(BuildContext& context, Topology mesh);

/// Triangulates (option `triangulate`), transforms and publishes `mesh` as the component's data.
/// `flip_normals`: the file's elements were reversed (FlipElements), and the triangles the
/// triangulation adds are reversed too, as SOFA's addTriangle does (a creator's never are).
void PublishMesh(BuildContext& context, Topology mesh, bool flip_normals = false);

}  // namespace fluxion::internal
