// What the mesh-reader fuzz targets (obj_fuzz, gmsh_fuzz, vtk_fuzz) share: the bytes are a mesh
// file given to one reader (framework/src/meshio/); a finding is a crash or sanitizer report, an
// exception that is not fluxion's ConfigError, or an error message that is not one line naming
// the file ("m.ext:LINE: …", no control byte). Whatever the input, reading stays linear in its
// size (counts are checked against the bytes left), so -timeout and -rss_limit_mb catch the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::fuzz {

template <class Read>
int FuzzMeshReader(const std::uint8_t* data, std::size_t size, const char* file, Read read) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    internal::MeshNotes notes;
    const Topology mesh = read(bytes, file, notes);
    // Every element's vertices exist.
    const auto check = [&](const auto& elements) {
      for (const auto& element : elements)
        for (const Index v : element)
          if (v < 0 || v >= static_cast<Index>(mesh.points.size())) {
            std::fprintf(stderr, "mesh_fuzz: FINDING: an element uses vertex %lld of %zu\n",
                         static_cast<long long>(v), mesh.points.size());
            std::abort();
          }
    };
    check(mesh.edges);
    check(mesh.triangles);
    check(mesh.quads);
    check(mesh.tetrahedra);
    check(mesh.hexahedra);
  } catch (const ConfigError& error) {
    const std::string message = error.what();
    bool one_line = message.rfind(std::string(file) + ":", 0) == 0;
    for (const char c : message)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) one_line = false;
    if (!one_line) {
      std::fprintf(stderr, "mesh_fuzz: FINDING: not a one-line error: [%s]\n", message.c_str());
      std::abort();
    }
  } catch (const std::exception& other) {
    std::fprintf(stderr, "mesh_fuzz: FINDING: unexpected exception: %s\n", other.what());
    std::abort();
  }
  return 0;
}

}  // namespace fluxion::fuzz
