// libFuzzer target for the Gmsh MSH reader (meshio/gmsh_reader.cpp). mesh_reader_fuzz.h says what
// a finding is.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.msh", [](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadGmshMesh(bytes, file, notes);
      });
}
