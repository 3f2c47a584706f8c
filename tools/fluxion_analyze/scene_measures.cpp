// The measurements on a user's scene (fluxion-analyze --order and --energy): runs of the scene
// itself, with its own solver or the one named by --solver. The oscillator analyses are in
// analysis.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "analysis.h"
#include "analysis_support.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"
#include "order_fit.h"

namespace fluxion::analysis {

namespace {

// --energy: an |E₀| below this fraction of the largest |E_n| is round-off of a zero energy.
constexpr double kEnergyScaleRoundOff = 1e-12;

// Every position of every object, concatenated.
Vector AllPositions(const Simulation& simulation) {
  Index size = 0;
  for (const ObjectModel& object : simulation.objects()) size += object.num_dofs();
  Vector positions(size);
  Index offset = 0;
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    const auto x = simulation.position(k);
    positions.segment(offset, x.size()) = x;
    offset += x.size();
  }
  return positions;
}

}  // namespace

ConvergenceResult MeasureConvergence(const Host& host, const std::string& scene_file,
                                     const std::optional<SolverChoice>& solver,
                                     const ConvergenceOptions& options) {
  if (options.steps < 1 || options.levels < 2 || options.reference_refinement < 2)
    throw UsageError("--order needs at least one step, two levels and a finer reference");
  if (solver) FindSolver(host, *solver);  // an unknown name is bad input, not a plugin problem
  ConvergenceResult result;
  // The scene is read once; each run builds it with its own dt (build once, run many).
  const PreparedScene prepared = host.Prepare(scene_file, Options(std::nullopt, solver));
  result.dt = options.dt ? *options.dt : prepared.Instantiate().dt();
  result.end_time = result.dt * static_cast<double>(options.steps);

  // Run `index` (0: the reference) at dt/refinement, reporting its progress when asked. The dt
  // is written as its shortest round-trip decimal, which reads back as the same double.
  auto run = [&](int index, long refinement) {
    const double h = result.dt / static_cast<double>(refinement);
    Simulation simulation = prepared.Instantiate({{"dt", FormatReal(h)}});
    ConvergenceProgress progress{.run = index,
                                 .runs = options.levels + 1,
                                 .dt = h,
                                 .done = 0,
                                 .steps = options.steps * refinement};
    if (options.progress) options.progress(progress);
    for (long n = 0; n < progress.steps; ++n) {
      simulation.Step();
      if (options.progress && (n + 1) % kProgressSteps == 0) {
        progress.done = n + 1;
        options.progress(progress);
      }
    }
    return AllPositions(simulation);
  };
  const long finest = 1L << (options.levels - 1);
  const long reference_refinement = finest * options.reference_refinement;
  result.reference_dt = result.dt / static_cast<double>(reference_refinement);
  const Vector reference = run(0, reference_refinement);
  for (int level = 0; level < options.levels; ++level) {
    const long refinement = 1L << level;
    result.step_sizes.push_back(result.dt / static_cast<double>(refinement));
    result.errors.push_back((run(level + 1, refinement) - reference).cwiseAbs().maxCoeff());
  }
  // Each run's round-off, and the reference's, which every error includes.
  const double scale = std::max(1.0, reference.cwiseAbs().maxCoeff());
  const long reference_steps = options.steps * reference_refinement;
  std::vector<OrderSample> samples;
  for (int level = 0; level < options.levels; ++level) {
    const long steps = options.steps << level;
    result.round_off.push_back(RoundOff(scale, steps) + RoundOff(scale, reference_steps));
    samples.push_back({result.step_sizes[static_cast<std::size_t>(level)],
                       result.errors[static_cast<std::size_t>(level)], result.round_off.back()});
  }
  const OrderFit fit = FitOrder(samples);
  result.pair_orders = fit.pair_orders;
  result.global_order = fit.order;
  result.fit_first = fit.first;
  result.fit_last = fit.last;
  result.usable_runs = fit.usable;
  result.flat = fit.flat;
  result.flat_slope = fit.slope;
  return result;
}

EnergyResult MeasureEnergy(const Host& host, const std::string& scene_file,
                           const std::optional<SolverChoice>& solver,
                           const EnergyOptions& options) {
  if (options.steps < 1) throw UsageError("--energy needs at least one step");
  if (solver) FindSolver(host, *solver);
  Simulation simulation = host.LoadFile(scene_file, Options(options.dt, solver));
  std::vector<double> energy;
  energy.reserve(static_cast<std::size_t>(options.steps) + 1);
  energy.push_back(simulation.KineticEnergy() + simulation.PotentialEnergy());
  for (long n = 0; n < options.steps; ++n) {
    simulation.Step();
    energy.push_back(simulation.KineticEnergy() + simulation.PotentialEnergy());
  }

  EnergyResult result;
  result.dt = simulation.dt();
  result.steps = options.steps;
  result.end_time = simulation.time();
  result.initial = energy.front();
  result.final = energy.back();
  result.minimum = *std::min_element(energy.begin(), energy.end());
  result.maximum = *std::max_element(energy.begin(), energy.end());

  // Means over the first and last tenths, and the line through them (at the tenths' centres).
  const std::size_t window = std::max<std::size_t>(1, energy.size() / 10);
  auto mean = [&](std::size_t begin) {
    double sum = 0.0;
    for (std::size_t i = begin; i < begin + window; ++i) sum += energy[i];
    return sum / static_cast<double>(window);
  };
  const double first = mean(0), last = mean(energy.size() - window);
  const double first_centre = 0.5 * static_cast<double>(window - 1);
  const double last_centre = static_cast<double>(energy.size() - window) + first_centre;
  const double slope =
      last_centre > first_centre ? (last - first) / (last_centre - first_centre) : 0.0;
  double oscillation = 0.0;
  for (std::size_t i = 0; i < energy.size(); ++i) {
    const double trend = first + slope * (static_cast<double>(i) - first_centre);
    oscillation = std::max(oscillation, std::abs(energy[i] - trend));
  }
  result.drift = last - first;
  result.oscillation = oscillation;
  result.final_change = result.final - result.initial;

  // A relative number needs a scale: |E₀|, unless E₀ is zero or the round-off of a zero energy
  // (a scene starting at rest, springs at their rest length: E₀ ≈ 1e-30 J made relative drifts
  // of 1e28). Round-off in E is about ε times the energies the run holds, so an |E₀| under 1e-12
  // of the largest |E_n| is taken for zero; then only the absolute numbers are reported.
  const double largest = std::max(std::abs(result.minimum), std::abs(result.maximum));
  const double scale = std::abs(result.initial);
  if (scale > kEnergyScaleRoundOff * largest && scale >= std::numeric_limits<double>::min()) {
    result.scale = scale;
    result.relative_drift = result.drift / scale;
    result.relative_oscillation = result.oscillation / scale;
    result.relative_final_change = result.final_change / scale;
  }
  return result;
}

}  // namespace fluxion::analysis
