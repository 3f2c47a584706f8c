// libFuzzer target for the OFF reader (meshio/off_reader.cpp). mesh_reader_fuzz.h says what a
// finding is.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.off", [](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadOffMesh(bytes, file, notes);
      });
}
