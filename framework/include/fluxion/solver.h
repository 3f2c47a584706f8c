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
  /// The first DOF whose position (or, if all are finite, velocity) stopped being finite, when
  /// that is why the step failed; −1 otherwise. Set by `Solver::Step`, not by `DoStep`.
  Index nonfinite_dof = -1;
  /// kNotConverged: the residual the inner iteration ended on, in the iteration's own measure
  /// (CG: ‖r‖/‖b‖; Newton: its residual norm); 0 when unknown. When the same iteration misses
  /// its tolerance at many steps, the run reports the step with the largest one.
  double residual = 0.0;

  static StepResult Ok(int iterations = 0) { return {StepStatus::kOk, iterations, {}, -1, 0.0}; }
  static StepResult NotConverged(std::string why, int iterations = 0, double residual = 0.0) {
    return {StepStatus::kNotConverged, iterations, std::move(why), -1, residual};
  }
  static StepResult Failure(std::string why) {
    return {StepStatus::kNumericalFailure, 0, std::move(why), -1, 0.0};
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
  /// Computes a static equilibrium, not a motion (StaticSolver): each step moves x towards
  /// f(x) = 0 and leaves v alone, so it has no order of accuracy in time (order 0) and the
  /// oscillator analyses and the conformance suite's order check do not apply to it.
  kStaticMethod = 1u << 5,
};

/// What a solver declares about itself when it is registered; read by tools and docs.
struct SolverTraits {
  int order = 1;       ///< global order of accuracy of the positions in h, from x(t₀), v(t₀)
                       ///< (0 for a static method, kStaticMethod)
  unsigned flags = 0;  ///< SolverFlag bits
  int force_evaluations = 1;  ///< per step (Newton solvers: per iteration)
  int linear_solves = 0;      ///< per step (Newton solvers: per iteration)
};

/// Base class of every ODE solver ("fat base, thin solver").
///
/// `Step` validates its arguments, keeps a backup of the state, calls `DoStep`, translates
/// exceptions escaping from it into a failure, rejects non-finite results (restoring the backup),
/// advances time by exactly h and then lets the solver commit its history (`DoCommit`). `DoStep`
/// implements one step of the method on `state`, whose `time` is t_n on entry; it must not change
/// `state.time`.
///
/// History (stored accelerations, momenta, previous steps of a multistep method) has one owner:
/// the base decides when it is valid and when a step is final, so that no solver compares states
/// or re-checks finiteness itself.
///  - `DoStep` reads the history only when `history_valid()` says the state it was given is the
///    one the last accepted step returned; otherwise it starts the method up from that state
///    (while the history is invalid its buffers hold nothing and may take the start-up values).
///    It writes the step's new values into scratch buffers, never over a valid history, because
///    the step may still be rejected (by the solver, or by the base for a non-finite state).
///  - `DoCommit` runs once per accepted step, after the base has checked the state: it moves the
///    scratch values into the history (swaps, no allocation) and does the step's side effects.
///
/// Rules for implementations: size every work buffer in `DoInitialize` (no heap allocation in
/// `DoStep` or `DoCommit`; `DoFollowSystemChange` shrinks them in place) and obtain matrices from
/// `system.CreateMatrix()` once; implicit methods use `ImplicitSystem` (fluxion/implicit_system.h)
/// for A = m·M + b·B + k·K and its solve.
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
  /// returned status instead. A rejected step leaves `state` and the solver's history as they
  /// were, so the caller may retry (e.g. with a smaller h) without calling InvalidateHistory;
  /// only an exception escaping from the solver also invalidates the history. Nothing is logged:
  /// the caller decides what a status means (Simulation warns about kNotConverged once per
  /// solver node and summarises the repeats at the end of the run).
  StepResult Step(const MechanicalSystem& system, double h, State& state);

  /// Tells the solver that the next Step does not continue from the state the last accepted Step
  /// returned: the host has set positions or velocities (a script between two steps, an
  /// interactive drag), restored a checkpoint, or moved time. Solvers with history (kHasHistory:
  /// multistep methods, a stored acceleration or momentum) then start up again from the state
  /// they are given, as after Initialize; the others are unaffected. Cheap (it clears a flag), it
  /// keeps buffers, factorisations and the binding to the system.
  ///
  /// The base does not detect such changes by comparing states (a copy and a comparison of x and
  /// v per step in every solver with history, for something the host knows anyway), so a host
  /// that lets anyone write the state between steps must call this after every write: a scripting
  /// binding (Python) calls it inside its position and velocity setters, so that scripts need not
  /// know about it. Reading the state, or retrying after a rejected step, needs no call. Calling
  /// it when nothing changed is harmless but not free: the next step is a start-up step (an Euler
  /// step for AB-2, a fresh a_n for Newmark), so the trajectory differs from an uninterrupted run.
  void InvalidateHistory();

  /// Follows a change of `system` made in place by a topological change (fluxion/
  /// mechanical_system.h, SystemChange: blocks of DOFs removed, the last moved into each slot,
  /// diagonal masses changed), instead of Initialize: the base's own buffers (the state backup,
  /// its copy of the diagonal masses) follow the change, the history is discarded as by
  /// InvalidateHistory, and the solver's DoFollowSystemChange follows it in its buffers. A
  /// solver that overrides it keeps its memory (nothing allocated, nothing zeroed) and costs
  /// what the change costs, not what the system's size costs; one that does not is initialised
  /// again (DoInitialize), which is always right. The linear solver stays as it is (an
  /// iterative one follows the size at its next Factorize; a direct one's pattern is built and a
  /// system with a built pattern refuses such changes). `system` must be the one Initialize
  /// bound, already changed.
  void FollowSystemChange(const MechanicalSystem& system, const SystemChange& change);

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

  /// True when the state DoStep is given is the one the last accepted step returned, unchanged:
  /// a step has been accepted (and committed) since Initialize, and neither InvalidateHistory nor
  /// an exception escaping from DoStep or DoCommit came since. Then (and only then) the history
  /// committed by DoCommit belongs to this state. A rejected step does not change it (its state
  /// was restored). Meaningful inside DoStep. The step size is the solver's business: a method
  /// whose history assumes a fixed h compares it itself.
  bool history_valid() const;

  /// a = P·M⁻¹·f: the projected acceleration. Uses the diagonal inverse when M is diagonal and
  /// the linear solver otherwise (failing if the scene has none). `a` must have num_dofs() entries.
  StepResult ComputeAcceleration(const MechanicalSystem& system, const Vector& f, Vector& a);
  /// a = P·M⁻¹·f(at), with f(at) = `force.Compute(system, at)`: a force object that keeps its own
  /// buffer, e.g. RayleighDampedForce (fluxion/rayleigh_damping.h), so that a method's stages
  /// read `AccelerationAt(system, stage_, damped_force_, a2_)`.
  template <class Force>
  StepResult AccelerationAt(const MechanicalSystem& system, const State& at, Force& force,
                            Vector& a) {
    return ComputeAcceleration(system, force.Compute(system, at), a);
  }
  /// M's diagonal when M is diagonal (null otherwise), for a solver that computes the
  /// acceleration inside its own pass over the DOFs instead of calling ComputeAcceleration (one
  /// pass and one vector fewer): a_i = 0 where system.inverse_mass_diagonal()[i] is 0, f_i / m_i
  /// elsewhere (a division, as ComputeAcceleration's), then P applied to the DOFs
  /// system.projected_dofs() lists — to all of them when it is null.
  const Vector* diagonal_mass() const;

  /// Solvers whose step overwrites x and v in one final pass that reads them anyway (explicit
  /// Euler: v += h·a, x += h·v) may keep the backup themselves, which saves Step a copy of the
  /// state (a read and a write of x and v per step), and its finiteness check (a read of x and v).
  /// Return true from BacksUpState() and then, in DoStep, before x_i or v_i change, store the old
  /// values in backup_x()[i] and backup_v()[i] (for every i), and call StateBackedUp(all_finite)
  /// with whether every new x_i and v_i is finite (false makes Step search and reject the step as
  /// usual). A step that fails or throws before StateBackedUp must have left the state untouched;
  /// after it, Step restores the backup as usual.
  virtual bool BacksUpState() const;
  double* backup_x();
  double* backup_v();
  void StateBackedUp(bool all_finite);

 private:
  virtual void DoInitialize(const MechanicalSystem& system);
  virtual StepResult DoStep(const MechanicalSystem& system, double h, State& state) = 0;

  /// Follows `change` in the solver's own buffers (see FollowSystemChange): FollowRemovedBlocks
  /// on each vector indexed by DOF, ImplicitSystem::FollowSystemChange, and anything the solver
  /// derived from the masses at the DOFs `change.mass_dofs` lists. Default: DoInitialize(system).
  virtual void DoFollowSystemChange(const MechanicalSystem& system, const SystemChange& change);

  /// Commits the step DoStep just took: called by Step once per accepted step, after the base has
  /// checked that `state` is finite and advanced its time, so `state` is (t_n + h, x_{n+1},
  /// v_{n+1}) and `h` the step just taken. Move the step's new history values in (swap scratch
  /// buffers: no allocation) and do what only an accepted step may do (update reported outputs,
  /// write a log file). It cannot reject the step; an exception escaping from it turns the step
  /// into a failure (state restored, history invalidated), which is meant for bugs only.
  /// Default: nothing (solvers without history).
  virtual void DoCommit(const MechanicalSystem& system, double h, const State& state);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion
