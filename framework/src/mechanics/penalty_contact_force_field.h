// SOFA's penalty contact response (PenalityContactForceField under BarycentricPenalityContact),
// one force field per solver system holding every contact the system receives in a step.
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// The contacts of one system, each a unilateral spring along its normal.
///
/// SOFA (Sofa/Component/Collision/Response/Contact/src/sofa/component/collision/response/contact/
/// PenalityContactForceField.inl, addForce, addDForce): a contact joins a point p₁ of model 1 and
/// a point p₂ of model 2 (each mapped from its element by a contact mapper, barycentric
/// coordinates fixed when the contact is created: BarycentricPenalityContact.inl), with normal n
/// (from model 1 towards model 2), contact distance d and stiffness ks:
///
///   pen = d − (p₂ − p₁)·n;   if pen > 0:  f₁ += −ks·pen·n,  f₂ += ks·pen·n
///   K = −∂f/∂x:  ks·n·nᵀ on (p₁, p₁) and (p₂, p₂), −ks·n·nᵀ on (p₁, p₂) and (p₂, p₁)
///
/// Here each side is an affine function of the system's DOFs, p_s = c_s + W_s·x: W_s composes the
/// element's barycentric weights with the collision object's linear mapping (identity for an
/// object of the system; Subset, Barycentric, Identity mappings), and c_s is the position of a
/// side that is not in this system (a static obstacle, read at detection). So
///
///   pen(x) = offset − gᵀx,   offset = d − (c₂ − c₁)·n,   g = (W₂ − W₁)ᵀ·n
///   f += ks·pen·g,   K = ks·g·gᵀ   (pen > 0),   V = ½·ks·pen²
///
/// which is SOFA's force and stiffness once its mapped points are pulled back through Jᵀ. The
/// contact's data is g (a few DOFs: 1 to 2·3·8 terms), offset and ks.
///
/// Contacts are replaced between steps only (the runtime calls ClearContacts/AddContact after the
/// detection and before the solvers; AssembledSystem documents this exception to "a force field
/// keeps no per-step state"). During a step the list is constant, so every solver sees one smooth
/// force law per step, as in SOFA.
///
/// Deliberate differences from SOFA:
///  - The active set (pen > 0) of the stiffness is taken at the state being linearised; SOFA's
///    addDForce reuses the `pen` of its last addForce (the same state in its implicit Euler).
///  - There is no assembled stiffness (StiffnessEntries is empty): contacts couple DOFs that the
///    system's fixed sparsity pattern does not hold, so the stiffness exists only in the
///    matrix-free tangent (TangentSize, for CGLinearSolver); the scene builder refuses systems
///    that would assemble K with contacts (direct linear solvers). Rayleigh stiffness damping,
///    which assembles K, therefore does not see the contacts.
///  - SOFA's friction term (mu_v) is not applied: SOFA's penalty force field stores it without
///    using it either.
///  - PotentialEnergy is ½·ks·pen² (SOFA's getPotentialEnergy reports "not implemented").
///
/// The stiffness linearised for the products (LinearizeStiffness) is kept in the field itself
/// (its tangent slice is empty: the number of contacts changes between steps while the tangent
/// operator's layout is fixed), so the last linearisation is the one every tangent operator of
/// the system multiplies with. Storage grows to the largest contact count met and is then reused:
/// no allocation in a step once capacities are reached.
class PenaltyContactForceField final : public ForceField {
 public:
  /// Removes every contact (keeping the storage).
  void ClearContacts();
  /// Starts a contact of stiffness `stiffness` [N/m] whose penetration is pen(x) = offset − gᵀx
  /// [m]; AddTerm then gives g's entries.
  void AddContact(double stiffness, double offset);
  /// g[dof] += coefficient for the last contact added (a DOF may be given several times).
  void AddTerm(Index dof, double coefficient);
  /// offset += delta for the last contact added (the share of sides held at fixed positions).
  void AdjustOffset(double delta);
  /// f[dof] += value in every force evaluation of the step: a contact this system does not solve
  /// (its response lies outside every solver's subtree), computed once at the step's start as
  /// SOFA's SolveVisitor computes such interaction forces into the external force. Cleared with
  /// the contacts.
  void AddExplicitForce(Index dof, double value);

  Index num_contacts() const { return static_cast<Index>(stiffness_.size()); }
  /// pen(x) of contact `contact` at `state` [m] (positive: in contact).
  double Penetration(Index contact, const State& state) const;

  void AddForce(const State& state, Vector& f) const override;
  std::ptrdiff_t TangentSize() const override { return 0; }
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;
  double PotentialEnergy(const State& state) const override;

 private:
  // Contact c's terms are [first_term_[c], first_term_[c + 1]).
  std::vector<double> stiffness_, offset_;
  std::vector<std::size_t> first_term_{0};
  std::vector<Index> dofs_;
  std::vector<double> coefficients_;
  // Constant forces of the step (AddExplicitForce).
  std::vector<Index> explicit_dofs_;
  std::vector<double> explicit_values_;
  // ks for the contacts active at the last linearisation, 0 for the others.
  mutable std::vector<double> active_stiffness_;
};

}  // namespace fluxion::internal
