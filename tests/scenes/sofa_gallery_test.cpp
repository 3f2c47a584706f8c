// The SOFA-style gallery scenes of scenes/ (issue 12): a cloth read from an OBJ mesh draping over
// a SphereForceField, and a Gmsh tetrahedral block resting on a PlaneForceField, loaded from their
// files (their meshes found next to them) and checked against what the physics demands.
#include <gmock/gmock.h>

#include <cmath>

#include "support/test_support.h"

namespace fluxion {
namespace {

Simulation LoadGallery(const std::string& name) {
  return testing::TestHost().LoadFile(std::string(FLUXION_TEST_SOURCE_DIR) + "/scenes/" + name);
}

class SofaGallery : public testing::QuietTest {};

TEST_F(SofaGallery, ClothDrapesOverTheSphere) {
  Simulation simulation = LoadGallery("cloth_on_sphere.scn");
  ASSERT_EQ(simulation.objects().size(), 1u);  // the visual node is skipped
  ASSERT_EQ(simulation.objects()[0].num_points, 169);
  for (int step = 0; step < 200; ++step) simulation.Step();  // t = 1 s
  const auto x = simulation.position(0);
  double lowest = 1e9, highest = -1e9, closest = 1e9;
  for (Index i = 0; i < 169; ++i) {
    const double px = x[3 * i], py = x[3 * i + 1], pz = x[3 * i + 2];
    ASSERT_TRUE(std::isfinite(px) && std::isfinite(py) && std::isfinite(pz));
    lowest = std::min(lowest, py);
    highest = std::max(highest, py);
    closest = std::min(closest, std::sqrt(px * px + py * py + pz * pz));
  }
  // It rests on the ball (radius 0.3): nothing sinks deeper than a few millimetres (the penalty
  // stiffness 2000 N/m holds ~0.3 kg of cloth), the top lies on the ball's top, and the edges
  // hang down around it.
  EXPECT_GT(closest, 0.29);
  EXPECT_NEAR(highest, 0.3, 0.01);
  EXPECT_LT(lowest, -0.1);
}

TEST_F(SofaGallery, BlockRestsOnThePlane) {
  Simulation simulation = LoadGallery("block_on_plane.scn");
  const ObjectModel& block = simulation.objects().at(0);
  ASSERT_EQ(block.num_points, 45);                            // 5 × 3 × 3 nodes
  for (int step = 0; step < 2000; ++step) simulation.Step();  // t = 4 s: dropped, bounced, at rest
  const auto x = simulation.position(0);
  const auto v = simulation.velocity(0);
  EXPECT_LT(v.norm(), 1e-5);
  // At rest the plane's penalty forces carry the whole weight: Σ k·depth over the 15 bottom nodes
  // = M·g, with M = 500 kg/m³ × 0.4 × 0.2 × 0.2 m³ = 8 kg.
  double carried = 0.0;
  for (Index i = 0; i < block.num_points; ++i)
    if (x[3 * i + 1] < 0) carried += 50000 * -x[3 * i + 1];
  EXPECT_NEAR(carried, 8 * 9.81, 1e-4 * 8 * 9.81);
}

}  // namespace
}  // namespace fluxion
