// SOFA's PrecomputedLinearSolver: the first system matrix's inverse, used for every later solve.
#pragma once

#include <string>

#include "fluxion/export.h"
#include "fluxion/linear_solver.h"
#include "fluxion/parameters.h"
#include "fluxion/types.h"
#include "linear/ldl_linear_solver.h"

namespace fluxion::internal {

/// SOFA's PrecomputedLinearSolver (Sofa/Component/LinearSolver/Direct/src/sofa/component/
/// linearsolver/direct/PrecomputedLinearSolver.inl): at its first `invert` it computes A₀⁻¹ of
/// the first system matrix (column by column, by EigenSimplicialLLT solves of the unit vectors)
/// and switches the linear system's assembly off; every solve afterwards is x = A₀⁻¹·b, whatever
/// the matrix has become since — a model of a system whose matrix does not change (linear
/// elasticity, fixed time step), and an approximation otherwise (its FEMBAR example uses a
/// corotational FEM: the rotations are not followed by the solve).
///
/// Fluxion factorises A₀ once (SparseLDLSolver: CHOLMOD's Cholesky) and solves with the factor:
/// the same x as the dense inverse's product up to rounding, without the n × n inverse (SOFA's
/// takes n solves and n² doubles). Later Factorize calls do nothing. `use_file` (SOFA stores the
/// inverse in a .comp file of its node's name) is accepted and not acted on: Fluxion writes no
/// file the user did not name. `jmjt_twostep` serves SOFA's constraint correction (JMJᵀ), which
/// Fluxion does not have: accepted.
class PrecomputedLinearSolver final : public LinearSolver {
 public:
  static ComponentSpec Spec();
  explicit PrecomputedLinearSolver(const Parameters& parameters);

  const std::string& name() const override { return name_; }
  LinearSolveResult Factorize(const SparseMatrix& A) override;
  LinearSolveResult FactorizeMass(const SparseMatrix& M) override;
  LinearSolveResult Solve(const Vector& b, Vector& x) override;

 private:
  std::string name_ = "PrecomputedLinearSolver";
  LdlLinearSolver factor_;
  bool precomputed_ = false;
};

}  // namespace fluxion::internal
