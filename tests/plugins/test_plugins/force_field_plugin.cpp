// A plugin that adds force fields, for the force-field plugin API tests:
//  - TestTetherForceField: each point is tethered to its initial position with a stiffness
//    proportional to its mass, f_i = −c·m_i·(x_i − p_i), so every point oscillates at ω² = c
//    whatever its mass. It reads all of its ForceFieldContext (layout, masses, positions), lists
//    its stiffness K_ii = c·m_i, and its potential is ½·c·m_i·|x_i − p_i|². `point` restricts it
//    to one point and is checked against the object (a ConfigError for an index out of range).
//  - TestStrayForceField: a buggy field listing a stiffness entry outside its object's DOFs.
#include <fluxion/errors.h>
#include <fluxion/plugin.h>

#include <string>
#include <vector>

namespace {

using fluxion::ComponentKind;
using fluxion::ComponentSpec;
using fluxion::FieldSpec;
using fluxion::ForceFieldContext;
using fluxion::Index;
using fluxion::MatrixEntry;
using fluxion::State;
using fluxion::Vector;

class TetherForceField final : public fluxion::ForceField {
 public:
  static ComponentSpec Spec() {
    return {.name = "TestTetherForceField",
            .kind = ComponentKind::kForceField,
            .summary = "test plugin: tethers points to their initial positions, k = c·m",
            .fields = {FieldSpec::Real("c", 1.0, "stiffness per unit mass [1/s²]").AtLeast(0),
                       FieldSpec::Integer("point", -1, "the only point tethered (-1: all)")},
            .aliases = {}};
  }

  TetherForceField(const fluxion::Parameters& p, const ForceFieldContext& context)
      : c_(p.real("c")) {
    const long point = p.integer("point");
    if (point >= context.num_points)
      throw fluxion::ConfigError("point", "point " + std::to_string(point) + " is out of range ('" +
                                              std::string(context.object) + "' has " +
                                              std::to_string(context.num_points) + " points)");
    for (Index i = 0; i < context.num_points; ++i) {
      if (point >= 0 && i != point) continue;
      for (int axis = 0; axis < context.dimension; ++axis) {
        const auto local = static_cast<std::size_t>(i * context.dimension + axis);
        dofs_.push_back(context.first_dof + static_cast<Index>(local));
        anchors_.push_back(context.positions[local]);
        stiffness_.push_back(c_ * context.point_mass[static_cast<std::size_t>(i)]);
      }
    }
  }

  void AddForce(const State& state, Vector& f) const override {
    for (std::size_t k = 0; k < dofs_.size(); ++k)
      f[dofs_[k]] -= stiffness_[k] * (state.x[dofs_[k]] - anchors_[k]);
  }
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override {
    for (const Index dof : dofs_) entries.push_back({dof, dof});
  }
  void AddStiffness(const State&, const Index* slots, double* values) const override {
    for (std::size_t k = 0; k < dofs_.size(); ++k) values[slots[k]] += stiffness_[k];
  }
  double PotentialEnergy(const State& state) const override {
    double energy = 0.0;
    for (std::size_t k = 0; k < dofs_.size(); ++k) {
      const double stretch = state.x[dofs_[k]] - anchors_[k];
      energy += 0.5 * stiffness_[k] * stretch * stretch;
    }
    return energy;
  }

 private:
  double c_;
  std::vector<Index> dofs_;
  std::vector<double> anchors_, stiffness_;
};

class StrayForceField final : public fluxion::ForceField {
 public:
  static ComponentSpec Spec() {
    return {.name = "TestStrayForceField",
            .kind = ComponentKind::kForceField,
            .summary = "test plugin: lists a stiffness entry outside its object (a bug)",
            .fields = {},
            .aliases = {}};
  }
  StrayForceField(const fluxion::Parameters&, const ForceFieldContext& context)
      : outside_(context.first_dof + context.num_points * context.dimension) {}
  void AddForce(const State&, Vector&) const override {}
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override {
    entries.push_back({outside_, outside_});
  }

 private:
  Index outside_;
};

}  // namespace

FLUXION_PLUGIN("test_force_field", "1.0.0") {
  registrar.AddForceField<TetherForceField>(TetherForceField::Spec());
  registrar.AddForceField<StrayForceField>(StrayForceField::Spec());
}
