// libFuzzer target for the .trian and .trian2 reader (meshio/trian_reader.cpp; the input's first
// byte chooses trian2). mesh_reader_fuzz.h says what a finding is; the border outputs' edges must
// use existing vertices too.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool trian2 = size > 0 && (data[0] & 1) != 0;
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.trian", [&](std::string_view bytes, const std::string& file, auto& notes) {
        (void)notes;
        fluxion::internal::TrianMesh read = fluxion::internal::ReadTrianMesh(bytes, file, trian2);
        read.mesh.edges = read.border_edges;  // checked with the elements
        return read.mesh;
      });
}
