// libFuzzer target for the VTK readers, legacy and XML (meshio/vtk_reader.cpp and
// vtk_xml_reader.cpp: ReadVtkMesh hands a file that starts with "<?xml" or "<VTKFile" to the XML
// reader, as SOFA does; corpus/vtk/ holds seeds of both). mesh_reader_fuzz.h says what a finding
// is.
#include "mesh_reader_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fluxion::fuzz::FuzzMeshReader(
      data, size, "m.vtk", [](std::string_view bytes, const std::string& file, auto& notes) {
        return fluxion::internal::ReadVtkMesh(bytes, file, notes, {});
      });
}
