// A scene's build scales with its size, and its size is bounded by the memory budget (issue #25,
// items 4 and 5): many small objects and links cost time linear in their number (links are
// resolved through per-node indexes, object ids checked in a hash set), and memory the budget
// counts per node, component and attribute, and per copy a link or an engine's output makes.
// Every scene is generated here.
#include <gmock/gmock.h>

#include <ctime>
#include <string>

#include "../conformance/allocation_counter.h"
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;

constexpr std::uint64_t kHundredMiB = std::uint64_t{100} << 20;

// `count` one-point nodes under one solver, each node's points linked from the previous node's
// object: the duplicate-id check, the link resolution and the mass check see every object.
std::string ChainOfNodes(int count) {
  std::string xml = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <Node name="n0"><MechanicalObject name="dofs" position="0 0 0"/><UniformMass vertexMass="1"/></Node>
)";
  for (int k = 1; k < count; ++k)
    xml += "  <Node name=\"n" + std::to_string(k) +
           "\"><MechanicalObject name=\"dofs\" position=\"@../n" + std::to_string(k - 1) +
           "/dofs.position\"/><UniformMass vertexMass=\"1\"/></Node>\n";
  return xml + "</Node>\n";
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

struct BuildCost {
  long allocations = 0;
  double cpu_seconds = 0;
};

BuildCost CostOfLoading(const std::string& xml) {
  const long allocations = conformance::AllocationCount();
  const double started = ThreadCpuSeconds();
  const Simulation simulation = testing::TestHost().LoadString(xml, "chain.scn");
  return {conformance::AllocationCount() - allocations, ThreadCpuSeconds() - started};
}

class SceneScale : public testing::QuietTest {};

// Four times the objects cost four times the work, not sixteen. Heap allocations are counted
// exactly (a quadratic link resolution made a path string per sibling looked at); CPU time of this
// thread, best of two, bounds what allocates nothing (the duplicate-id and mass checks scanned
// every object for each one): 8 lies halfway between linear (4, plus the log factor of the
// ordered maps) and quadratic (16), far from both under a loaded machine's noise.
TEST_F(SceneScale, BuildingIsLinearInTheNumberOfObjectsAndLinks) {
  const std::string small = ChainOfNodes(10'000), large = ChainOfNodes(40'000);
  BuildCost small_cost = CostOfLoading(small), large_cost = CostOfLoading(large);
  small_cost.cpu_seconds = std::min(small_cost.cpu_seconds, CostOfLoading(small).cpu_seconds);
  large_cost.cpu_seconds = std::min(large_cost.cpu_seconds, CostOfLoading(large).cpu_seconds);
  if (conformance::CountsAllocations()) {
    EXPECT_LT(static_cast<double>(large_cost.allocations),
              4.5 * static_cast<double>(small_cost.allocations));
  }
  EXPECT_LT(large_cost.cpu_seconds, 8.0 * small_cost.cpu_seconds)
      << "10k objects: " << small_cost.cpu_seconds << " s, 40k: " << large_cost.cpu_seconds << " s";
}

std::vector<std::string> Errors(const std::string& xml, std::uint64_t memory_limit) {
  LoadOptions options;
  options.memory_limit = memory_limit;
  return testing::LoadErrors(xml, "big.scn", options);
}

// 10⁵ one-point objects took 0.74 GB under a 100 MiB limit: the per-object overhead is counted
// before the build allocates it, and the scene is refused in one line.
TEST_F(SceneScale, ManySmallObjectsAreRefusedAtTheMemoryLimit) {
  const std::vector<std::string> errors = Errors(ChainOfNodes(100'000), kHundredMiB);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], HasSubstr("big.scn:1: the scene has 100001 nodes and 200001 components: "
                                   "about "));
  EXPECT_THAT(errors[0], HasSubstr(" of memory to build (expected at most 100 MiB: "));
}

// One 10⁵-point object read by 500 engines through links took 2.4 GB under a 100 MiB limit: each
// reader's copy is counted before it is kept.
TEST_F(SceneScale, ALargeObjectReadByManyEnginesIsRefusedAtTheMemoryLimit) {
  std::string xml = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <RegularGridTopology name="grid" n="100000 1 1" min="0 0 0" max="1 0 0"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
)";
  for (int k = 0; k < 500; ++k)
    xml += "  <BoxROI name=\"box" + std::to_string(k) +
           "\" position=\"@dofs.position\" box=\"-1 -1 -1 2 2 2\"/>\n";
  xml += "</Node>\n";
  const std::vector<std::string> errors = Errors(xml, kHundredMiB);
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_THAT(errors[0], ::testing::MatchesRegex(
                             "big\\.scn:[0-9]+: (link '@dofs\\.position' into <BoxROI> 'box[0-9]+'|"
                             "<BoxROI> 'box[0-9]+' output '[A-Za-z_]+') holds .* of memory \\("
                             "expected at most 100 MiB: .*\\)"));
}

}  // namespace
}  // namespace fluxion
