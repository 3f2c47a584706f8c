// --plot: r and Ψ/Φ against Φ for several solvers on one figure, drawn by gnuplot (Debian package
// gnuplot-nox) run as a subprocess with the data inline in its script.
#pragma once

#include <string>
#include <vector>

#include "analysis.h"

namespace fluxion::analysis {

/// One curve pair of the figure.
struct PlotSeries {
  std::string label;  ///< legend text, e.g. "EulerExplicitSolver symplectic=0"
  std::vector<TransitionPoint> points;
};

/// The gnuplot script drawing `series` into `output_file`: two panels sharing the Φ axis (top:
/// spectral radius r with the stability line r = 1; bottom: Ψ/Φ with the exact value 1), one
/// colour per solver, one legend. The terminal follows the extension: .svg (svg) or .png
/// (pngcairo). Throws ConfigError("plot", …) for another extension.
std::string GnuplotScript(const std::vector<PlotSeries>& series, const std::string& output_file,
                          double zeta);

/// The gnuplot `set terminal` line for `output_file`: svg for .svg, pngcairo for .png. Throws
/// ConfigError("plot", …) for another extension.
std::string PlotTerminal(const std::string& output_file);

/// Checks `output_file` before any work: its extension (PlotTerminal) and that it can be written
/// (it is created, empty). Throws ConfigError("plot", …).
void CheckPlotFile(const std::string& output_file);

/// The gnuplot executable: $FLUXION_GNUPLOT when set, else `gnuplot` on PATH; empty if none.
std::string FindGnuplot();

/// Runs `gnuplot` on `script`. Returns an empty string on success, else what went wrong.
std::string RunGnuplot(const std::string& gnuplot, const std::string& script);

}  // namespace fluxion::analysis
