// VariationalSymplecticSolver — SOFA's variational (midpoint, α = ½) integrator of Kharevych et
// al. 2006, with Newton iterations on the midpoint displacement, or its explicit variant.
//
// Source: seed 004 §4 ("VariationalSymplectic solver"); SOFA VariationalSymplecticSolver
// (sofa-notes §1.4, operation order in sofa-semantics §10). Fluxion's K = −∂f/∂x is SOFA's −K.
// The momentum p is stored between steps (p_0 = M·v_0). P projects out the fixed DOFs.
//
// Implicit (default). Newton on r, the midpoint displacement, q = x_n + r, r_0 = 0:
//   repeat   b = P[ f(q_i, v_n) + (2/h)·p_n + K(q_i)·r_i ]
//            A = P[ (4/h² + 4rM/h)·M + (1 + 4rK/h)·K(q_i) ]P,   A·r_{i+1} = b,   q_{i+1} = x_n +
//            r_{i+1} err = ‖q_{i+1} − q_i‖ / ‖x_n‖
//   while (i < steps and err > newtonError) or i == 0          (at least one iteration)
//   v_{n+1} = 2r/h
//   p_{n+1} = (h/2)·P·f(x_n + (h/2)·v_{n+1}, v_{n+1}) + M·v_{n+1}
//   x_{n+1} = (x_n + (h/2)·v_{n+1}) + (h/2)·v_{n+1}            (two half steps, as SOFA)
// At convergence on linear forces: [(1 + h·rM)·M + (h²/4 + h·rK)·K]·v_{n+1} = p_n + (h/2)·f(x_n).
// Rayleigh damping enters A only, so p_{n+1} carries no damping term.
//
// Explicit (explicitIntegration = 1):
//   a = P[ M⁻¹(f(x_n, v_n) + p_n/h) − rM·v_n ],   v_{n+1} = h·a,   x_{n+1} = x_n + h·v_{n+1},
//   p_{n+1} = M·v_{n+1}.   With p_n = M·v_n this is symplectic Euler plus mass damping.
//
// Order 2 (implicit midpoint: symplectic, conserves the energy of linear systems exactly; stable
// for every h); the explicit variant is symplectic Euler: order 1, stable for ω·h < 2.
//
// Hamiltonian (implicit mode, computeHamiltonian = 1), reported as the output "hamiltonian":
//   H = ½·p_{n+1}ᵀ·M⁻¹·p_{n+1} + U, with U_0 = potential energy at the first step and
//   U ← U − 2·f·r (f from the last Newton iteration) with useIncrementalPotentialEnergy, else U =
//   the potential energy at x_{n+1}. With saveEnergyInFile, "t_n,kinetic,potential,H" lines go to
//   `file` (a relative path; SOFA writes the start time of the step).
//
// SOFA behaviours reproduced:
//  - Newton stops on a step-size criterion relative to ‖x_n‖, the norm of all positions (it
//    depends on where the origin is), and not converging within `steps` is silent: the step is
//    accepted (status ok, `iterations` says how many were done). The tangent K is refreshed at
//    every iterate.
//  - p and U are (re)initialised on the first step and whenever the step starts at time 0 (and,
//    in Fluxion, after Solver::InvalidateHistory: the host set the state).
//  - The XML name of the iteration limit is `steps` (the seed and SOFA's own test say newtonSteps).
//  - The seed's p_{k+1} = (M + h²/4)·v_{k+1} + (h/2)·Fext is a typo; SOFA's p_{n+1} above is used,
//    and the seed's explicit v_{k+1} = 2(...)/M is SOFA's h·M⁻¹(f + p/h) − h·rM·v.
//  - In explicit mode rayleighStiffness is ignored and no Hamiltonian is computed.
// Deliberate deviations: when ‖x_n‖ = 0 SOFA's err is 0/0 (NaN, which stops Newton after one
// iteration whatever the error); Fluxion then uses the absolute ‖q_{i+1} − q_i‖. The CSV file is
// written with 17 significant digits (SOFA: 6), only when saveEnergyInFile is set (SOFA truncates
// `file` at init even when it is not), and `verbose` is accepted silently (SOFA warns).
#include <fluxion/errors.h>
#include <fluxion/implicit_system.h>
#include <fluxion/output_files.h>
#include <fluxion/plugin.h>
#include <fluxion/rayleigh_damping.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace {

using fluxion::FieldSpec;
using fluxion::RayleighCoefficients;

class VariationalSymplecticSolver final : public fluxion::Solver {
 public:
  static fluxion::ComponentSpec Spec() {
    return {
        .name = "VariationalSymplecticSolver",
        .kind = fluxion::ComponentKind::kOdeSolver,
        .summary =
            "Variational (implicit midpoint) integrator with Newton iterations; energy output",
        .fields = {FieldSpec::Real("newtonError", 0.01,
                                   "Newton stops when ‖q_{i+1} − q_i‖/‖x_n‖ ≤ newtonError")
                       .AtLeast(0),
                   FieldSpec::Integer("steps", 5, "maximum number of Newton iterations per step")
                       .AtLeast(1),
                   RayleighCoefficients::StiffnessField(
                       "Rayleigh damping proportional to the stiffness, rK [s] (implicit only)"),
                   RayleighCoefficients::MassField(),
                   FieldSpec::Bool("explicitIntegration", false,
                                   "use the explicit variant (symplectic Euler on the momentum)"),
                   FieldSpec::Bool(
                       "computeHamiltonian", true,
                       "report the discrete Hamiltonian as the output 'hamiltonian' (implicit "
                       "mode)"),
                   FieldSpec::Bool(
                       "useIncrementalPotentialEnergy", true,
                       "accumulate the potential energy from the work of the forces (else "
                       "evaluate it at x_{n+1})"),
                   FieldSpec::Bool(
                       "saveEnergyInFile", false,
                       "write time, kinetic, potential and Hamiltonian energies to 'file'"),
                   FieldSpec::Text("file", "",
                                   "CSV file for saveEnergyInFile, relative to the output folder "
                                   "(scene-runner --output-dir)")},
        .aliases = {}};
  }

  explicit VariationalSymplecticSolver(const fluxion::Parameters& p)
      : newton_error_(p.real("newtonError")),
        max_iterations_(p.integer("steps")),
        rayleigh_stiffness_(p.real("rayleighStiffness")),
        rayleigh_mass_(p.real("rayleighMass")),
        explicit_(p.flag("explicitIntegration")),
        compute_hamiltonian_(p.flag("computeHamiltonian")),
        incremental_potential_(p.flag("useIncrementalPotentialEnergy")),
        save_energy_(p.flag("saveEnergyInFile")),
        file_name_(p.text("file")) {
    // Where the energy file may go is the output policy's to decide, when it is opened; a name
    // that can never pass it is refused here already, at the scene's line.
    const std::filesystem::path path(file_name_);
    if (path.has_root_path())
      throw fluxion::ConfigError("file", "'" + file_name_ +
                                             "' is an absolute path (expected a path relative to "
                                             "the output folder)");
    for (const std::filesystem::path& component : path)
      if (component == "..")
        throw fluxion::ConfigError("file", "'" + file_name_ +
                                               "' contains a '..' component (expected a path "
                                               "below the output folder)");
    if (save_energy_ && file_name_.empty())
      throw fluxion::ConfigError(
          "file", "saveEnergyInFile=1 needs a file name (expected file=\"energy.csv\")");
  }

  std::vector<std::string> OutputNames() const override {
    if (reports_hamiltonian()) return {"hamiltonian"};
    return {};
  }
  void ReadOutputs(double* values) const override {
    if (reports_hamiltonian()) values[0] = hamiltonian_;
  }

  // explicitIntegration=1 is symplectic Euler plus mass damping: explicit, order 1, no linear
  // solve per step (the linear solver is still required in the node, as SOFA does).
  fluxion::SolverTraits RefineTraits(const fluxion::SolverTraits& registered) const override {
    fluxion::SolverTraits traits = registered;
    if (explicit_) {
      traits.order = 1;
      traits.flags = (traits.flags & ~static_cast<unsigned>(fluxion::kImplicitMethod)) |
                     fluxion::kExplicitMethod;
      traits.linear_solves = 0;
    }
    return traits;
  }

 private:
  bool reports_hamiltonian() const { return compute_hamiltonian_ && !explicit_; }

  void DoInitialize(const fluxion::MechanicalSystem& system) override {
    const fluxion::Index n = system.num_dofs();
    implicit_.Initialize(system, linear_solver());
    if (!system.is_mass_diagonal()) {  // M⁻¹·p through the linear solver (SOFA's way)
      projected_mass_ = system.mass();
      system.ProjectMatrix(projected_mass_);
    }
    for (fluxion::Vector* v : {&force_, &rhs_, &product_, &displacement_, &start_position_,
                               &previous_iterate_, &momentum_, &new_momentum_, &mass_solution_})
      v->setZero(n);
    hamiltonian_ = std::numeric_limits<double>::quiet_NaN();

    // The energy file is opened once, with SOFA's header line, through the host's file policy:
    // below the output folder only, created fresh unless the user allows replacing a file, never
    // an input of the run (fluxion/output_files.h).
    if (save_energy_ && !energy_file_) {
      std::string why;
      energy_file_ = fluxion::OpenSceneOutputFile(file_name_, &why);
      if (!energy_file_) throw fluxion::ConfigError("file", why);
      std::fputs("time,kinetic energy,potential energy, hamiltonian energy\n", energy_file_.get());
      std::fflush(energy_file_.get());
    }
  }

  fluxion::StepResult DoStep(const fluxion::MechanicalSystem& system, double h,
                             fluxion::State& s) override {
    // p_0 = M·v_0 and U_0 when starting up (SOFA: also whenever time is 0). They go straight into
    // the history: it holds nothing valid then, and a rejected step recomputes the same values
    // from the restored state.
    if (!history_valid() || s.time == 0.0) {
      momentum_.noalias() = system.mass() * s.v;
      potential_ = system.PotentialEnergy(s);
    }
    step_start_time_ = s.time;
    const fluxion::StepResult result =
        explicit_ ? ExplicitStep(system, h, s) : ImplicitStep(system, h, s);
    if (!result.accepted()) return result;

    // The base checks x and v; p_{n+1} also holds f at the new midpoint, which can overflow on
    // its own (colliding N-body points), and must not become the next step's momentum.
    if (!new_momentum_.allFinite())
      return fluxion::StepResult::Failure(
          "the momentum p_{n+1} is not finite (the integration diverged)");
    return result;
  }

  // The step is accepted: p_{n+1} and U become the history, the Hamiltonian is reported and
  // written (with the step's start time, as SOFA).
  void DoCommit(const fluxion::MechanicalSystem& /*system*/, double /*h*/,
                const fluxion::State& /*state*/) override {
    momentum_.swap(new_momentum_);
    potential_ = new_potential_;
    if (reports_hamiltonian()) {
      hamiltonian_ = new_hamiltonian_;
      if (save_energy_) {
        // %.17g: what an ostream with precision 17 writes (the format of earlier releases).
        std::fprintf(energy_file_.get(), "%.17g,%.17g,%.17g,%.17g\n", step_start_time_, kinetic_,
                     reported_potential_, new_hamiltonian_);
        std::fflush(energy_file_.get());
      }
    }
  }

  // Explicit variant: v_{n+1} = h·P[M⁻¹(f + p_n/h) − rM·v_n].
  fluxion::StepResult ExplicitStep(const fluxion::MechanicalSystem& system, double h,
                                   fluxion::State& s) {
    system.ComputeForce(s, force_);
    force_ += momentum_ * (1.0 / h);
    if (auto r = ComputeAcceleration(system, force_, product_); !r.accepted()) return r;
    if (rayleigh_mass_ > 0) {
      product_ += s.v * (-rayleigh_mass_);
      system.ProjectResponse(product_);
    }
    s.v = product_ * h;
    s.x += s.v * h;
    new_momentum_.noalias() = system.mass() * s.v;
    new_potential_ = potential_;
    return fluxion::StepResult::Ok();
  }

  fluxion::StepResult ImplicitStep(const fluxion::MechanicalSystem& system, double h,
                                   fluxion::State& s) {
    const fluxion::SparseMatrix& M = system.mass();
    const double mass_factor = 4.0 / (h * h) + 4 * rayleigh_mass_ / h;
    const double stiffness_factor = 1.0 + 4 * rayleigh_stiffness_ / h;
    start_position_ = s.x;
    const double position_norm = start_position_.norm();
    previous_iterate_ = s.x;
    displacement_.setZero();

    // Newton on the midpoint displacement r; s.x holds the iterate q_i = x_n + r_i, s.v stays v_n.
    int iteration = 0;
    double error = 0.0;
    bool linear_converged = true;
    fluxion::StepResult solved;  // of the last linear solve
    do {
      system.ComputeForce(s, force_);
      implicit_.AssembleStiffness(s);
      rhs_ = force_;
      rhs_ += momentum_ * (2.0 / h);
      implicit_.MultiplyStiffness(displacement_, product_);
      rhs_ += product_;  // SOFA's −K·r with its K = −ours
      system.ProjectResponse(rhs_);

      // A = (4/h² + 4rM/h)·M + (1 + 4rK/h)·K, no B (SOFA's variational solver has none).
      if (auto r = implicit_.Factorize(mass_factor, 0.0, stiffness_factor); !r.accepted()) return r;
      solved = implicit_.Solve(rhs_, displacement_);
      if (!solved.accepted()) return solved;
      linear_converged = linear_converged && solved.status == fluxion::StepStatus::kOk;

      // q_{i+1} = x_n + r_{i+1}; the error is the change of the iterate relative to ‖x_n‖.
      s.x = start_position_ + displacement_;
      product_ = s.x - previous_iterate_;
      previous_iterate_ = s.x;
      error = position_norm > 0.0 ? product_.norm() / position_norm : product_.norm();
      ++iteration;
    } while ((iteration < max_iterations_ && error > newton_error_) || iteration == 0);

    // Incremental potential: the work of the last evaluated force over the step, 2r.
    new_potential_ = potential_;
    if (compute_hamiltonian_ && incremental_potential_)
      new_potential_ = potential_ + (-2.0 * force_.dot(displacement_));

    // v_{n+1} = 2r/h; p_{n+1} from the force at the new midpoint (with the new velocity).
    s.v = displacement_ * (2.0 / h);
    s.x = start_position_ + s.v * (h / 2);
    system.ComputeForce(s, force_);
    system.ProjectResponse(force_);
    new_momentum_ = force_ * (h / 2.0);
    product_.noalias() = M * s.v;
    new_momentum_ += product_;
    s.x += s.v * (h / 2);  // SOFA recomputes x_n + v·h/2 + v·h/2: the first sum is already in s.x

    // Discrete Hamiltonian ½·pᵀM⁻¹p + U.
    if (compute_hamiltonian_) {
      if (system.is_mass_diagonal()) {
        mass_solution_ = system.inverse_mass_diagonal().cwiseProduct(new_momentum_);
      } else {
        const fluxion::LinearSolveResult mass = linear_solver()->FactorizeMass(projected_mass_);
        if (!mass.ok) return fluxion::StepResult::Failure("mass matrix: " + mass.message);
        const fluxion::LinearSolveResult inverted =
            linear_solver()->Solve(new_momentum_, mass_solution_);
        if (!inverted.ok) return fluxion::StepResult::Failure("mass solve: " + inverted.message);
      }
      kinetic_ = 0.5 * new_momentum_.dot(mass_solution_);
      reported_potential_ = incremental_potential_ ? new_potential_ : system.PotentialEnergy(s);
      new_hamiltonian_ = kinetic_ + reported_potential_;
    }

    if (!linear_converged)
      return fluxion::StepResult::NotConverged(solved.message, iteration, solved.residual);
    return fluxion::StepResult::Ok(iteration);
  }

  double newton_error_;
  long max_iterations_;
  double rayleigh_stiffness_;
  double rayleigh_mass_;
  bool explicit_;
  bool compute_hamiltonian_;
  bool incremental_potential_;
  bool save_energy_;
  std::string file_name_;
  fluxion::OutputFile energy_file_;

  double step_start_time_ = 0.0;  // t_n, for the energy file
  double potential_ = 0.0;        // U_n (incremental) or U_0
  double new_potential_ = 0.0;
  double kinetic_ = 0.0;             // of the step being taken
  double reported_potential_ = 0.0;  // U or the potential energy at x_{n+1}
  double new_hamiltonian_ = 0.0;
  double hamiltonian_ = std::numeric_limits<double>::quiet_NaN();
  fluxion::ImplicitSystem implicit_;
  fluxion::SparseMatrix projected_mass_;
  fluxion::Vector force_, rhs_, product_, displacement_, start_position_, previous_iterate_;
  fluxion::Vector momentum_, new_momentum_, mass_solution_;
};

}  // namespace

FLUXION_PLUGIN("variational_symplectic", "0.1.0") {
  registrar.AddSolver<VariationalSymplecticSolver>(
      VariationalSymplecticSolver::Spec(),
      {.order = 2,
       .flags = fluxion::kImplicitMethod | fluxion::kSymplecticMethod |
                fluxion::kNeedsLinearSolver | fluxion::kHasHistory,
       .force_evaluations = 1,
       .linear_solves = 1});
}
