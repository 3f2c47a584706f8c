// The nonlinear mechanical-mapping API: how a component maps a child object onto a parent through
// a function x_c = φ(x_p) whose Jacobian changes with x_p (SOFA's DistanceMapping,
// SquareDistanceMapping). Linear mappings pass their constant Jacobian to
// BuildContext::MapObject directly.
#pragma once

#include <vector>

#include "fluxion/export.h"
#include "fluxion/force_field.h"
#include "fluxion/types.h"

namespace fluxion {

/// x_c = φ(x_p) from the DOFs of a parent object (point by point, its template's dimension) to
/// the DOFs of a child object. The framework evaluates the child's force fields at φ(x_p) and
/// J·v_p, maps their forces back as J(x_p)ᵀ·f_c, their stiffness as Jᵀ·K_c·J, and adds the
/// mapping's geometric stiffness K_g = −∂(J(x)ᵀ·f_c)/∂x at fixed f_c (SOFA's applyDJT, with
/// Fluxion's sign: K = −∂f/∂x). All methods are const and called with trial states; a mapping
/// keeps no per-step state and must not allocate in them.
class FLUXION_API Mapping {
 public:
  virtual ~Mapping();

  /// Number of child DOFs.
  virtual Index num_outputs() const = 0;
  /// Appends the Jacobian's entries (child DOF, parent DOF), once, in a fixed order: J's sparsity
  /// pattern never changes. No entry twice.
  virtual void JacobianEntries(std::vector<MatrixEntry>& entries) const = 0;
  /// child = φ(parent); when `jacobian` is not null, also J(parent), one value per entry of
  /// JacobianEntries, in that order.
  virtual void Apply(const double* parent, double* child, double* jacobian) const = 0;
  /// Appends the entries (parent DOF, parent DOF) of the geometric stiffness. Default: none.
  virtual void GeometricStiffnessEntries(std::vector<MatrixEntry>& entries) const;
  /// values[slots[k]] += K_g entry k at `parent` for the child forces `child_force`.
  virtual void AddGeometricStiffness(const double* parent, const double* child_force,
                                     const Index* slots, double* values) const;
};

}  // namespace fluxion
