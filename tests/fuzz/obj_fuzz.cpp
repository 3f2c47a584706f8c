// libFuzzer target for the OBJ reader (meshio/obj_reader.cpp), with and without handleSeams and
// triangulate (the input's first byte chooses). mesh_reader_fuzz.h says what a finding is.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t options = size > 0 ? data[0] : 0;
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.obj", [&](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadObjMesh(bytes, file, (options & 1) != 0, (options & 2) != 0,
                                              notes);
      });
}
