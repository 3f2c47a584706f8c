#include "fluxion/solver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/plugin.h"
#include "fluxion/threads.h"

namespace fluxion {

struct Solver::Impl {
  const MechanicalSystem* system = nullptr;
  LinearSolver* linear_solver = nullptr;
  // Backup of the state taken before each step, restored when the step is rejected. Sized in
  // Initialize so that Step never allocates.
  Vector backup_x;
  Vector backup_v;
  // Diagonal masses: m per DOF, for a = f/m (SOFA's accFromF divides).
  Vector mass_diagonal;
  // M for the linear-solver path of ComputeAcceleration (non-diagonal masses only).
  SparseMatrix projected_mass;
  // The state Step is given is the one the last committed step returned (see history_valid()).
  bool history_valid = false;
  // backup_x and backup_v hold the state the current step started from (taken by Step, or by a
  // solver that BacksUpState() in its own pass).
  bool backed_up = false;
  // The solver that backed the state up also found every new value finite.
  bool known_finite = false;
  // The indefinite-mass warning of ComputeAcceleration was given.
  bool mass_warning_given = false;
};

Solver::Solver() : impl_(std::make_unique<Impl>()) {}
Solver::~Solver() = default;

SolverTraits Solver::RefineTraits(const SolverTraits& registered) const { return registered; }

void Solver::DoInitialize(const MechanicalSystem& /*system*/) {}
void Solver::DoFollowSystemChange(const MechanicalSystem& system, const SystemChange& /*change*/) {
  DoInitialize(system);
}
void Solver::DoCommit(const MechanicalSystem& /*system*/, double /*h*/, const State& /*state*/) {}
std::vector<std::string> Solver::OutputNames() const { return {}; }
void Solver::ReadOutputs(double* /*values*/) const {}

LinearSolver* Solver::linear_solver() const { return impl_->linear_solver; }
bool Solver::BacksUpState() const { return false; }
double* Solver::backup_x() { return impl_->backup_x.data(); }
double* Solver::backup_v() { return impl_->backup_v.data(); }
void Solver::StateBackedUp(bool all_finite) {
  impl_->backed_up = true;
  impl_->known_finite = all_finite;
}
bool Solver::history_valid() const { return impl_->history_valid; }
const Vector* Solver::diagonal_mass() const {
  return impl_->system != nullptr && impl_->system->is_mass_diagonal() ? &impl_->mass_diagonal
                                                                       : nullptr;
}
void Solver::InvalidateHistory() { impl_->history_valid = false; }

void Solver::Initialize(const MechanicalSystem& system, LinearSolver* linear_solver) {
  impl_->system = &system;
  impl_->linear_solver = linear_solver;
  impl_->history_valid = false;  // a restart: the first step starts the method up
  impl_->backup_x.resize(system.num_dofs());
  impl_->backup_v.resize(system.num_dofs());
  if (system.is_mass_diagonal()) {
    impl_->mass_diagonal = system.mass_diagonal();  // M itself may never be built
  } else {
    impl_->projected_mass = system.mass();
    system.ProjectMatrix(impl_->projected_mass);
  }
  DoInitialize(system);
}

void Solver::FollowSystemChange(const MechanicalSystem& system, const SystemChange& change) {
  if (impl_->system != &system)
    throw UsageError("Solver::FollowSystemChange: not the system the solver was initialised with");
  if (change.mass_dofs.size() != change.masses.size())
    throw UsageError("Solver::FollowSystemChange: mass_dofs and masses differ in length");
  impl_->history_valid = false;
  FollowRemovedBlocks(change, impl_->backup_x);
  FollowRemovedBlocks(change, impl_->backup_v);
  const Index n = system.num_dofs();
  if (system.is_mass_diagonal()) {
    FollowRemovedBlocks(change, impl_->mass_diagonal);
    if (impl_->mass_diagonal.size() != n)
      throw UsageError("Solver::FollowSystemChange: the change does not give the system's " +
                       std::to_string(n) + " DOFs");
    for (std::size_t k = 0; k < change.mass_dofs.size(); ++k) {
      const Index dof = change.mass_dofs[k];
      if (dof < 0 || dof >= n)
        throw UsageError("Solver::FollowSystemChange: mass DOF " + std::to_string(dof) +
                         " is not one of the system's " + std::to_string(n));
      impl_->mass_diagonal[dof] = change.masses[k];
    }
  } else {
    impl_->projected_mass = system.mass();
    system.ProjectMatrix(impl_->projected_mass);
  }
  if (impl_->backup_x.size() != n)
    throw UsageError("Solver::FollowSystemChange: the change does not give the system's " +
                     std::to_string(n) + " DOFs");
  DoFollowSystemChange(system, change);
}

StepResult Solver::ComputeAcceleration(const MechanicalSystem& system, const Vector& f, Vector& a) {
  if (system.is_mass_diagonal()) {
    // a_i = f_i / m_i, a division as in SOFA's accFromF (not f_i·(1/m_i), which differs in the
    // last bit); 0 where the inverse mass is 0 (fixed or massless DOFs).
    if (a.size() != f.size()) a.resize(f.size());  // sized by the caller: never allocates then
    const double* inverse = system.inverse_mass_diagonal().data();
    const double* mass = impl_->mass_diagonal.data();
    const double* force = f.data();
    double* out = a.data();
    ParallelFor(f.size(), kVectorGrain, [=](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) out[i] = inverse[i] == 0.0 ? 0.0 : force[i] / mass[i];
    });
    system.ProjectResponse(a);
    return StepResult::Ok();
  }
  // A non-diagonal mass is inverted by the scene's linear solver, as SOFA's explicit solvers do.
  // Factorised at every call: an implicit solver may have factorised its own matrix in between
  // with the same linear solver.
  if (impl_->linear_solver == nullptr)
    return StepResult::Failure(
        "the mass matrix is not diagonal and the scene has no linear solver to invert it");
  const LinearSolveResult factorized = impl_->linear_solver->FactorizeMass(impl_->projected_mass);
  if (!factorized.ok) return StepResult::Failure("mass matrix: " + factorized.message);
  if (!factorized.message.empty() && !impl_->mass_warning_given) {
    impl_->mass_warning_given = true;  // the mass is constant: once per run is enough
    LogWarn("mass matrix: " + factorized.message);
  }
  const LinearSolveResult solved = impl_->linear_solver->Solve(f, a);
  if (!solved.ok) return StepResult::Failure("mass solve: " + solved.message);
  system.ProjectResponse(a);
  return StepResult::Ok();
}

namespace {
// Index of the first non-finite entry, or -1.
Index FirstNonFinite(const Vector& values) {
  for (Index i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i])) return i;
  return -1;
}

// True when every entry of x and v is finite. One pass over both, vectorisable: a double is
// non-finite exactly when its exponent bits are all ones, so the loop ORs a comparison of the
// bits instead of branching per entry; FirstNonFinite then finds which (rarely).
bool AllFinite(const Vector& x, const Vector& v) {
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;
  const double* xs = x.data();
  const double* vs = v.data();
  std::atomic<bool> bad{false};
  ParallelFor(x.size(), kVectorGrain, [&](Index begin, Index end) {
    std::uint64_t found = 0;
    for (Index i = begin; i < end; ++i) {
      std::uint64_t bx, bv;
      std::memcpy(&bx, xs + i, sizeof bx);
      std::memcpy(&bv, vs + i, sizeof bv);
      found |= static_cast<std::uint64_t>((bx & kExponent) == kExponent) |
               static_cast<std::uint64_t>((bv & kExponent) == kExponent);
    }
    if (found != 0) bad.store(true, std::memory_order_relaxed);
  });
  return !bad.load(std::memory_order_relaxed);
}

// The backup of x and v, in one pass over the threads (sized alike: no allocation).
void CopyState(const State& state, Vector& x, Vector& v) {
  const double* from_x = state.x.data();
  const double* from_v = state.v.data();
  double* to_x = x.data();
  double* to_v = v.data();
  ParallelFor(state.x.size(), kVectorGrain, [=](Index begin, Index end) {
    std::copy(from_x + begin, from_x + end, to_x + begin);
    std::copy(from_v + begin, from_v + end, to_v + begin);
  });
}
}  // namespace

StepResult Solver::Step(const MechanicalSystem& system, double h, State& state) {
  if (impl_->system == nullptr) throw UsageError("Solver::Step called before Initialize");
  if (impl_->system != &system)
    throw UsageError(
        "Solver::Step called with another system than the one it was initialised with");
  if (!(h > 0.0) || !std::isfinite(h))
    throw UsageError("Solver::Step needs a finite time step h > 0, got " + internal::FormatReal(h));
  if (state.x.size() != system.num_dofs() || state.v.size() != system.num_dofs())
    throw UsageError("Solver::Step: state has " + std::to_string(state.x.size()) +
                     " positions and " + std::to_string(state.v.size()) +
                     " velocities, the system has " + std::to_string(system.num_dofs()) + " DOFs");

  // The backup a rejected step is restored from: copied here, or kept by the solver in its own
  // last pass (BacksUpState), in which case a step that fails before it left the state alone.
  impl_->backed_up = false;
  impl_->known_finite = false;
  if (!BacksUpState()) {
    CopyState(state, impl_->backup_x, impl_->backup_v);
    impl_->backed_up = true;
  }
  const double start_time = state.time;

  StepResult result;
  try {
    result = DoStep(system, h, state);
  } catch (const std::exception& error) {
    // The exception may have cut the solver short anywhere: start it up again on the next step.
    impl_->history_valid = false;
    result = StepResult::Failure(std::string("solver raised an exception: ") + error.what());
  }
  state.time = start_time;  // DoStep must not move time; the base does, below

  if (result.accepted() && !impl_->known_finite && !AllFinite(state.x, state.v)) {
    const Index bad_x = FirstNonFinite(state.x);
    const Index bad_v = bad_x < 0 ? FirstNonFinite(state.v) : -1;
    if (bad_x >= 0 || bad_v >= 0) {
      result = StepResult::Failure(std::string(bad_x >= 0 ? "position" : "velocity") + " of DOF " +
                                   std::to_string(bad_x >= 0 ? bad_x : bad_v) +
                                   " is not finite (the integration diverged)");
      result.nonfinite_dof = bad_x >= 0 ? bad_x : bad_v;
    }
  }
  if (!result.accepted()) {
    // The history is untouched (DoStep writes scratch only) and still matches the restored state.
    if (impl_->backed_up) {
      state.x = impl_->backup_x;
      state.v = impl_->backup_v;
    }
    return result;
  }
  state.time = start_time + h;

  // The step is final: the solver commits its history for the state it returned.
  try {
    DoCommit(system, h, state);
  } catch (const std::exception& error) {
    // A half-committed history cannot be trusted: restore the state and start up again.
    impl_->history_valid = false;
    if (impl_->backed_up) {
      state.x = impl_->backup_x;
      state.v = impl_->backup_v;
    }
    state.time = start_time;
    return StepResult::Failure(
        std::string("solver raised an exception while committing the step: ") + error.what());
  }
  impl_->history_valid = true;
  return result;
}

PluginRegistrar::~PluginRegistrar() = default;
LinearSolver::~LinearSolver() = default;
LinearSolveResult LinearSolver::FactorizeMass(const SparseMatrix& M) { return Factorize(M); }
bool LinearSolver::accepts_operator() const { return false; }
bool LinearSolver::approximate() const { return false; }
void LinearSolver::AttachLinked(LinkedLinearSolver linked) {
  throw UsageError(name() + " declares the linear-solver link '" + linked.field +
                   "' but does not override LinearSolver::AttachLinked to take it");
}
LinearSolveResult LinearSolver::FactorizeOperator(const LinearOperator& /*A*/) {
  throw UsageError(name() + " does not accept a matrix given as an operator");
}
LinearOperator::~LinearOperator() = default;

}  // namespace fluxion
