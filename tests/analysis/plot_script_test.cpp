// --plot's gnuplot script: legend entries fit the legend column (issue "The first hour": a long
// label ran off the figure). A label of a solver with several parameters is broken into rows of
// at most 38 characters; a short one stays on one row.
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "plot.h"

namespace fluxion::analysis {
namespace {

using ::testing::HasSubstr;

std::string ScriptFor(const std::string& label) {
  PlotSeries series{label, {}};
  TransitionPoint point;
  point.phi = 1.0;
  point.ok = true;
  point.spectral_radius = 1.0;
  point.psi = 1.0;
  series.points.push_back(point);
  return GnuplotScript({series}, "figure.png", 0.0);
}

TEST(PlotScript, ShortLabelStaysOnOneLine) {
  EXPECT_THAT(ScriptFor("EulerExplicitSolver symplectic=0"),
              HasSubstr("title \"EulerExplicitSolver symplectic=0\""));
}

TEST(PlotScript, LongLabelIsBrokenIntoLinesThatFitTheLegend) {
  const std::string script =
      ScriptFor("EulerImplicitSolver rayleighMass=0.1 rayleighStiffness=0.01 trapezoidalScheme=1");
  // The first line titles the curve; each further line is a key entry of its own (invisible
  // sample), indented by two spaces.
  EXPECT_THAT(script, HasSubstr("title \"EulerImplicitSolver rayleighMass=0.1\", keyentry with "
                                "lines lc rgb \"#FFFFFF\" title \"  rayleighStiffness=0.01\", "
                                "keyentry with lines lc rgb \"#FFFFFF\" title \"  "
                                "trapezoidalScheme=1\""));
}

}  // namespace
}  // namespace fluxion::analysis
