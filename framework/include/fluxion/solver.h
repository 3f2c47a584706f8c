// The ODE solver interface. A solver plugin derives from `Solver` and writes its method's
// mathematics in `DoStep`; the non-virtual `Step` does everything else once for all solvers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/mechanical_system.h"
#include "fluxion/state.h"

namespace fluxion {

/// How a step ended. The step loop never throws for numerical trouble: it returns a status and
/// the caller (scene-runner, a tool, a test) decides what to do.
enum class StepStatus {
  kOk,                ///< step accepted
  kNotConverged,      ///< step accepted, but an inner iteration (Newton, CG) missed its tolerance
  kNumericalFailure,  ///< step rejected: the state is restored to what it was before the step
};

struct [[nodiscard]] StepResult {
  StepStatus status = StepStatus::kOk;
  int iterations = 0;   ///< inner iterations (Newton steps), 0 when the method has none
  std::string message;  ///< why, for anything but kOk

  static StepResult Ok(int iterations = 0) { return {StepStatus::kOk, iterations, {}}; }
  static StepResult NotConverged(std::string why, int iterations = 0) {
    return {StepStatus::kNotConverged, iterations, std::move(why)};
  }
  static StepResult Failure(std::string why) {
    return {StepStatus::kNumericalFailure, 0, std::move(why)};
  }
  bool accepted() const { return status != StepStatus::kNumericalFailure; }
};

/// Capability flags a solver declares in its registration (`SolverTraits::flags`).
enum SolverFlag : unsigned {
  kExplicitMethod = 1u << 0,
  kImplicitMethod = 1u << 1,
  kSymplecticMethod = 1u << 2,
  kNeedsLinearSolver = 1u << 3,  ///< the scene must provide a linear solver component
  kHasHistory = 1u << 4,         ///< keeps state between steps (multistep, stored acceleration)
};

/// What a solver declares about itself when it is registered; read by tools and docs.
struct SolverTraits {
  int order = 1;              ///< global order of accuracy in h
  unsigned flags = 0;         ///< SolverFlag bits
  int force_evaluations = 1;  ///< per step (Newton solvers: per iteration)
  int linear_solves = 0;      ///< per step (Newton solvers: per iteration)
};

/// Base class of every ODE solver ("fat base, thin solver").
///
/// `Step` validates its arguments, keeps a backup of the state, calls `DoStep`, translates
/// exceptions escaping from it into a failure, rejects non-finite results (restoring the backup)
/// and advances time by exactly h. `DoStep` implements one step of the method on `state`, whose
/// `time` is t_n on entry; it must not change `state.time`.
///
/// Rules for implementations: size every work buffer in `DoInitialize` (no heap allocation in
/// `DoStep`), obtain matrices from `system.CreateMatrix()` once, and commit any history (stored
/// accelerations, momenta) only when returning an accepted status.
class FLUXION_API Solver {
 public:
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  virtual ~Solver();

  /// Binds the solver to `system` (and the scene's linear solver, which may be null unless the
  /// solver declared kNeedsLinearSolver). Both must outlive the solver's use. Call before Step,
  /// and again to restart from scratch (history is discarded).
  void Initialize(const MechanicalSystem& system, LinearSolver* linear_solver);

  /// Advances `state` from t to t + h. Throws UsageError for h ≤ 0, a non-finite h, a state whose
  /// size does not match the system, or a call before Initialize; every numerical problem is a
  /// returned status instead.
  StepResult Step(const MechanicalSystem& system, double h, State& state);

  /// Names of the scalar outputs the solver reports after each step (e.g. "hamiltonian"), fixed
  /// for the solver's lifetime. scene-runner --solver-outputs writes them as extra CSV columns.
  virtual std::vector<std::string> OutputNames() const;
  /// Writes the current value of each output into values[0 .. OutputNames().size()). Called
  /// after Step; must not allocate.
  virtual void ReadOutputs(double* values) const;

  /// The traits of this solver as configured: `registered` (the traits its type was registered
  /// with) refined by its parameters — e.g. EulerExplicitSolver with symplectic=0 is not
  /// symplectic. The framework asks the instance, not the registry, whether it needs a linear
  /// solver, and fluxion-analyze reports these. Default: `registered` unchanged.
  virtual SolverTraits RefineTraits(const SolverTraits& registered) const;

 protected:
  Solver();

  /// The scene's linear solver (null if the scene has none).
  LinearSolver* linear_solver() const;

  /// a = P·M⁻¹·f: the projected acceleration. Uses the diagonal inverse when M is diagonal and
  /// the linear solver otherwise (failing if the scene has none). `a` must have num_dofs() entries.
  StepResult ComputeAcceleration(const MechanicalSystem& system, const Vector& f, Vector& a);

 private:
  virtual void DoInitialize(const MechanicalSystem& system);
  virtual StepResult DoStep(const MechanicalSystem& system, double h, State& state) = 0;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion
