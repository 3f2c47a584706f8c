#include "plot.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::analysis {

namespace {

// A colour-blind-safe palette (Okabe–Ito), one colour per solver, cycled.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// Text inside a double-quoted gnuplot string.
std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

// A legend entry longer than this many characters is broken into lines: the legend column right
// of the plots holds about 45 characters of Sans 13 (PNG 1440 px and SVG 1080 px wide alike).
constexpr std::size_t kLegendLineLength = 38;

// The solver's label as legend lines: its name, then its parameters packed at most
// kLegendLineLength characters a line (a longer single parameter is cut with "…").
std::vector<std::string> LegendLines(const std::string& label) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < label.size()) {
    std::size_t end = label.find(' ', start);
    if (end == std::string::npos) end = label.size();
    std::string word = label.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (word.size() > kLegendLineLength) word = word.substr(0, kLegendLineLength - 1) + "…";
    // A word joins the line when it fits, else starts an indented line of its own (so a short
    // label stays on one line).
    if (!lines.empty() && lines.back().size() + 1 + word.size() <= kLegendLineLength)
      lines.back() += " " + word;
    else
      lines.push_back(lines.empty() ? word : "  " + word);
  }
  return lines;
}

// r above 1 by more than this draws Ψ/Φ dashed (the plot's resolution, not the analyzer's).
constexpr double kStableTolerance = 1e-6;

std::string Number(double value) { return std::isfinite(value) ? FormatReal(value) : "NaN"; }

}  // namespace

std::string PlotTerminal(const std::string& output_file) {
  const std::string extension = std::filesystem::path(output_file).extension().string();
  if (extension == ".svg")
    return "set terminal svg size 1080,780 dynamic noenhanced font \"Sans,13\" background rgb "
           "\"white\"";
  if (extension == ".png")
    return "set terminal pngcairo size 1440,1040 noenhanced font \"Sans,13\" background rgb "
           "\"white\"";
  throw ConfigError("plot",
                    "--plot '" + output_file + "': expected a file name ending in .svg or .png");
}

void CheckPlotFile(const std::string& output_file) {
  PlotTerminal(output_file);
  if (!std::ofstream(output_file))
    throw ConfigError("plot", "--plot '" + output_file +
                                  "': cannot open the file for writing (check the folder exists "
                                  "and is writable)");
}

std::string GnuplotScript(const std::vector<PlotSeries>& series, const std::string& output_file,
                          double zeta) {
  const std::string terminal = PlotTerminal(output_file);
  double phi_max = 0.0;
  for (const PlotSeries& s : series)
    for (const TransitionPoint& point : s.points) phi_max = std::max(phi_max, point.phi);

  // The data first, as inline data blocks: Φ, r, and Ψ/Φ twice, where the step is stable
  // (r ≤ 1) and where it is not (NaN elsewhere, and where a step failed), so that the curves can
  // be drawn solid and dashed.
  std::string script =
      "set encoding utf8\n" + terminal + "\nset output " + Quoted(output_file) + "\n";
  for (std::size_t i = 0; i < series.size(); ++i) {
    script += "$s" + std::to_string(i) + " << EOD\n";
    for (const TransitionPoint& point : series[i].points) {
      const bool stable = point.ok && point.spectral_radius <= 1.0 + kStableTolerance;
      const double ratio = point.ok ? point.frequency_ratio() : NAN;
      script += Number(point.phi) + " " + Number(point.ok ? point.spectral_radius : NAN) + " " +
                Number(stable ? ratio : NAN) + " " + Number(stable ? NAN : ratio) + "\n";
    }
    script += "EOD\n";
  }
  // One colour per solver; column 4 (unstable Ψ/Φ) thin and dashed, without a legend entry.
  // A titled curve's legend is its label's first line; each further line is a key entry of its
  // own, with an invisible (white) sample, so that gnuplot spaces the rows (a title holding "\n"
  // would overlap the next entry).
  auto curves = [&](int column, bool titled, const std::string& style) {
    std::string plot;
    for (std::size_t i = 0; i < series.size(); ++i) {
      const std::vector<std::string> lines = LegendLines(series[i].label);
      plot += "$s" + std::to_string(i) + " using 1:" + std::to_string(column) + " with lines " +
              style + " lc rgb \"" + kColours[i % std::size(kColours)] + "\" " +
              (titled ? "title " + Quoted(lines.front()) : std::string("notitle")) + ", ";
      if (!titled) continue;
      for (std::size_t k = 1; k < lines.size(); ++k)
        plot += "keyentry with lines lc rgb \"#FFFFFF\" title " + Quoted(lines[k]) + ", ";
    }
    return plot;
  };

  // Two panels on one Φ axis, with the same margins so that they line up, and the legends to the
  // right. Values off the chart are clipped, not rescaled, so that every stable solver stays
  // readable next to an unstable one.
  const std::string damping = zeta > 0.0 ? "ζ = " + FormatReal(zeta) : "undamped";
  script += "set multiplot layout 2,1 title " +
            Quoted(
                "Hoffmann's spectral radius r and numerical angle Ψ of one step on the harmonic "
                "oscillator (m = 1, k = 1, " +
                damping + ")") +
            "\n"
            "set grid lc rgb \"#dddddd\"\n"
            "set border lc rgb \"#444444\"\n"
            "set xrange [0:" +
            Number(phi_max) +
            "]\n"
            "set lmargin at screen 0.08\nset rmargin at screen 0.64\n"
            "set key at screen 0.66, screen 0.91 left top Left reverse box samplen 3 spacing 1.2\n"
            // Top: spectral radius, with the stability line drawn last (on top of r = 1 curves).
            "set ylabel \"spectral radius r (amplitude factor per step)\"\n"
            "set yrange [0:2]\n"
            "set format x \"\"\n"
            "plot " +
            curves(2, true, "lw 2.5") +
            "1 with lines dt 2 lw 2 lc rgb \"#000000\" title \"r = 1: stability limit\"\n"
            // Bottom: frequency ratio.
            "set key at screen 0.66, screen 0.45 left top Left reverse box samplen 3 spacing 1.2\n"
            "set format x \"%g\"\n"
            "set xlabel \"Φ = ω₀h (time step × natural frequency)\"\n"
            "set ylabel \"Ψ/Φ (numerical / exact phase per step)\"\n"
            "set yrange [0:2]\n"
            "plot " +
            curves(3, false, "lw 2.5") + curves(4, false, "lw 1.2 dt 2") +
            "1 with lines dt 3 lw 2 lc rgb \"#000000\" title \"Ψ = Φ: exact\", "
            "NaN with lines lw 1.2 dt 2 lc rgb \"#000000\" title \"dashed: unstable (r > 1)\"\n"
            "unset multiplot\n"
            "set output\n";
  return script;
}

std::string FindGnuplot() {
  if (const char* configured = std::getenv("FLUXION_GNUPLOT");
      configured != nullptr && *configured != '\0')
    return configured;
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= folders.size()) {
    const std::size_t end = std::min(folders.find(':', start), folders.size());
    const std::string folder = folders.substr(start, end - start);
    const std::string candidate = (folder.empty() ? "." : folder) + "/gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

std::string RunGnuplot(const std::string& gnuplot, const std::string& script) {
  // The script goes through stdin; gnuplot's own messages go to our stderr.
  std::string command = "'";
  for (const char c : gnuplot) command += c == '\'' ? std::string("'\\''") : std::string(1, c);
  command += "' - >/dev/null";  // its stdout is not ours: a failed `set output` would land there
  std::FILE* pipe = ::popen(command.c_str(), "w");
  if (pipe == nullptr) return "cannot start " + gnuplot;
  const bool written = std::fwrite(script.data(), 1, script.size(), pipe) == script.size();
  const int status = ::pclose(pipe);
  if (!written) return "cannot write the script to " + gnuplot;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return gnuplot + " failed (exit status " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  return {};
}

}  // namespace fluxion::analysis
