// libFuzzer target for the STL reader (meshio/stl_reader.cpp), ASCII and binary, with and without
// forceBinary (the input's first byte chooses). mesh_reader_fuzz.h says what a finding is.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool force_binary = size > 0 && (data[0] & 1) != 0;
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.stl", [&](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadStlMesh(bytes, file, force_binary, 80, notes);
      });
}
