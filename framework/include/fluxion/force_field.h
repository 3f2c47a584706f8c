// The force-field plugin API: what a component that adds forces to a mechanical system implements.
//
// Every force in a scene — springs, gravity, constant and time-dependent loads, and the force
// fields plugins register — is a ForceField. The scene builder gives each the mechanical object it
// acts on (a ForceFieldContext); the assembled system then sums their forces, stiffness and damping
// Jacobians and potential energies. A plugin registers a force field with
// `PluginRegistrar::AddForceField` (see fluxion/plugin.h and docs/writing-a-force-field.md;
// plugins/nbody_gravity/ is the worked example).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/state.h"
#include "fluxion/types.h"

namespace fluxion {

/// A (row, column) position in a system matrix, in system DOF indices.
struct MatrixEntry {
  Index row;
  Index col;
};

/// Something that contributes a force f(t, x, v) to the DOFs of one system.
///
/// Indices are system DOF indices: point i, axis a of the field's object is DOF
/// `context.first_dof + i·dimension + a` (see ForceFieldContext). `state.time` is the time at
/// which the solver evaluates the force — the stage time for multi-stage methods — so
/// time-dependent loads are integrated to the method's order.
///
/// Jacobians are assembled through a fixed list of entries, so that a step never searches a
/// sparse pattern nor allocates: `StiffnessEntries` lists the (row, col) positions the field
/// writes, once, when the system is assembled; the system maps each to its slot in the common
/// pattern's value array, and `AddStiffness` then adds one value per entry, in the same order, at
/// `values[slots[k]]`. Listing an entry twice is allowed (the values add up).
///
/// All methods are const and may be called in any order, any number of times, with states that
/// the solver is trying (stages, Newton iterates): a force field keeps no per-step state.
class FLUXION_API ForceField {
 public:
  virtual ~ForceField();

  /// f += force at `state` (do not overwrite: other fields have already added theirs).
  virtual void AddForce(const State& state, Vector& f) const = 0;

  /// Appends the entries of K = −∂f/∂x this field writes, in a fixed order. Default: none.
  virtual void StiffnessEntries(std::vector<MatrixEntry>& entries) const;
  /// values[slots[k]] += K entry k at `state`, for each entry of StiffnessEntries.
  virtual void AddStiffness(const State& state, const Index* slots, double* values) const;

  /// Appends the entries of B = −∂f/∂v; none (the default) for fields whose velocity dependence
  /// is left explicit.
  virtual void DampingEntries(std::vector<MatrixEntry>& entries) const;
  /// values[slots[k]] += B entry k at `state`, for each entry of DampingEntries.
  virtual void AddDamping(const State& state, const Index* slots, double* values) const;

  /// Matrix-free tangent (optional, for speed: see TangentOperator in fluxion/mechanical_system.h).
  /// The number of doubles the field stores to multiply by its K (and B) at one state, or −1
  /// (the default) when it has no product of its own: the system then assembles the field's
  /// StiffnessEntries/DampingEntries into a private value array and multiplies with those, which
  /// is correct for every field but slower.
  virtual std::ptrdiff_t TangentSize() const;
  /// Stores into `tangent` (TangentSize() doubles, laid out as the field likes) what
  /// AddTangentProduct needs to multiply by K at `state`.
  virtual void LinearizeStiffness(const State& state, double* tangent) const;
  /// As LinearizeStiffness, for B (fields whose DampingEntries are empty do nothing).
  virtual void LinearizeDamping(const State& state, double* tangent) const;
  /// y += b·B·x + k·K·x with K and B as linearised into `tangent` (b is 0 unless B was).
  virtual void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                                 Vector& y) const;

  /// The field's potential energy at `state` (conservative fields; 0 by default), with
  /// f = −∂V/∂x for its conservative part. Used by energy monitoring, never by solvers' forces.
  virtual double PotentialEnergy(const State& state) const;
};

/// The mechanical object a force-field component acts on: the MechanicalObject of its node, as
/// the scene builder hands it to the component's factory. The spans point into the builder's
/// memory and are valid during the factory call only: copy what the field needs.
struct ForceFieldContext {
  std::string_view object;  ///< the object's path, e.g. "root/planets/dofs" (for messages)
  int dimension = 3;        ///< 1, 2 or 3: the template (Vec1d, Vec2d, Vec3d)
  Index num_points = 0;
  Index first_dof = 0;  ///< system DOF of point 0, axis 0
  /// Each point's mass [kg], 0 for massless points. Fixed points keep their mass: a field's
  /// forces on them are projected out by the solver, but they still act on the others (a fixed
  /// sun attracts its planets).
  std::span<const double> point_mass;
  std::span<const double> positions;   ///< initial positions, point by point [m]
  std::span<const double> velocities;  ///< initial velocities, point by point [m/s]
};

}  // namespace fluxion
