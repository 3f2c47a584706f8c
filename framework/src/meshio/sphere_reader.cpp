// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/SphereLoader.cpp (load) and
// Sofa/framework/Helper/src/sofa/helper/io/SphereLoader.cpp: the `.sph` format of SOFA's
// sphere-tree meshes (share/mesh/*.sph). Deviations, all making a malformed file an error where
// SOFA reads on with defaults: the first line must start with "sph" (SOFA only checks that the
// file is not empty: its comparison with "sph 1.0" can never succeed), a `sphe` statement must
// hold its five numbers on its own line (SOFA's fscanf reads across lines and keeps (0, 0, 0) and
// radius 1 for what it misses), and `nums` must be a whole number.
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"

namespace fluxion::internal {

SphereList ReadSphereFile(std::string_view bytes, const std::string& file) {
  MeshText text(bytes, file);
  SphereList spheres;
  std::string_view line;
  if (!text.NextLine(line) || line.substr(0, 3) != "sph")
    text.FailAt(1, "is not a sphere file (expected 'sph 1.0' on the first line)");
  while (text.NextLine(line)) {
    const std::vector<std::string_view> words = MeshText::Words(line);
    if (words.empty() || words.front().front() == '#') continue;
    if (words.front() == "nums") {
      if (words.size() < 2) text.Fail("'nums' has no count (expected the number of spheres)");
      text.Count(words[1], "the sphere count");  // SOFA only reserves memory with it
    } else if (words.front() == "sphe") {
      if (words.size() < 6)
        text.Fail("'sphe' has " + std::to_string(words.size() - 1) +
                  " number(s) (expected: index x y z radius)");
      text.Count(words[1], "the sphere's index");  // SOFA numbers spheres in file order
      spheres.centres.push_back(
          {text.Real(words[2], "x"), text.Real(words[3], "y"), text.Real(words[4], "z")});
      spheres.radii.push_back(text.Real(words[5], "the radius"));
    } else {
      ++spheres.unknown_statements;  // SOFA warns and skips the line
    }
  }
  return spheres;
}

}  // namespace fluxion::internal
