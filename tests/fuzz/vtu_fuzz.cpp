// libFuzzer target for the VTK XML reader alone (meshio/vtk_xml_reader.cpp: .vtu and .vtp, ascii,
// base64 and zlib-compressed arrays), under a memory budget of its own: every size the file
// declares is checked against it before anything is decoded or inflated, so an input that makes
// the reader take more than -rss_limit_mb is a finding. vtk_fuzz reaches the same reader through
// the legacy one, without a budget. mesh_reader_fuzz.h says what a finding is.
#include "mesh_reader_fuzz.h"

namespace {

// 65,536 points: with 64 values a point, 32 MiB of decoded arrays at most.
const fluxion::internal::MeshBudget kBudget{.max_points = 65536,
                                            .text = "at most 65536 points (vtu_fuzz)"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.vtu", [](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadVtkXmlMesh(bytes, file, notes, kBudget);
      });
}
