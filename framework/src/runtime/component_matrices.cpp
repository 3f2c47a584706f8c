// The matrices of one component and the last linear system of a node, as SofaPython3's
// assembleKMatrix / assembleMMatrix and MatrixLinearSystem give them (Simulation::ComponentMatrix,
// Simulation::LastLinearSystem).
#include <numeric>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/simulation.h"
#include "runtime/recording_linear_solver.h"
#include "runtime/simulation_access.h"
#include "runtime/simulation_impl.h"

namespace fluxion {

namespace {

using Triplets = std::vector<Eigen::Triplet<double, int>>;

// K of `field` at `state`, entries inside [first, first + size) shifted to the object's own
// numbering; false when the field writes an entry outside (it couples two objects).
bool AddFieldStiffness(const ForceField& field, const State& state, Index first, Index size,
                       Triplets& out) {
  std::vector<MatrixEntry> entries;
  field.StiffnessEntries(entries);
  std::vector<Index> slots(entries.size());
  std::iota(slots.begin(), slots.end(), Index{0});
  std::vector<double> values(entries.size(), 0.0);
  field.AddStiffness(state, slots.data(), values.data());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Index row = entries[k].row - first, col = entries[k].col - first;
    if (row < 0 || row >= size || col < 0 || col >= size) return false;
    out.emplace_back(static_cast<int>(row), static_cast<int>(col), values[k]);
  }
  return true;
}

// M restricted to the object's DOFs [first, first + size).
void AddMassBlock(const MechanicalSystem& system, Index first, Index size, Triplets& out) {
  if (system.is_mass_diagonal()) {
    // The diagonal alone: mass() would build the whole matrix pattern for an explicit solver.
    const Vector diagonal = system.mass_diagonal();
    for (Index i = 0; i < size; ++i)
      if (diagonal[first + i] != 0.0)
        out.emplace_back(static_cast<int>(i), static_cast<int>(i), diagonal[first + i]);
    return;
  }
  const SparseMatrix& M = system.mass();
  for (Index col = first; col < first + size; ++col)
    for (SparseMatrix::InnerIterator it(M, static_cast<int>(col)); it; ++it)
      if (it.row() >= first && it.row() < first + size)
        out.emplace_back(static_cast<int>(it.row() - first), static_cast<int>(col - first),
                         it.value());
}

}  // namespace

SparseMatrix Simulation::ComponentMatrix(std::string_view component,
                                         ComponentMatrixKind kind) const {
  const std::string name(component);
  const bool stiffness = kind == ComponentMatrixKind::kStiffness;
  std::vector<const internal::MatrixSource*> sources;
  for (const internal::MatrixSource& source : impl_->matrix_sources)
    if (source.component == component && source.kind == kind) sources.push_back(&source);
  if (sources.empty())
    throw UsageError(name + (stiffness ? ": no stiffness matrix (expected a force field that "
                                         "acts on a simulated object)"
                                       : ": no mass matrix (expected a mass that acts on a "
                                         "simulated object)"));
  const int index = sources.front()->object;
  const ObjectModel& object = model().objects[static_cast<std::size_t>(index)];
  for (const internal::MatrixSource* source : sources)
    if (source->object != index)
      throw UsageError(name +
                       ": acts on two objects (expected one object: assemble the solver "
                       "node's matrices instead)");
  if (object.mapped_from >= 0)
    throw UsageError(name + ": acts on '" + object.id + "', which is mapped from '" +
                     model().objects[static_cast<std::size_t>(object.mapped_from)].id +
                     "' (Fluxion assembles a mapped object's matrices only into its parent's, "
                     "as Jᵀ·K·J: expected a component on a simulated object)");
  const SolverNode& node = impl_->nodes[static_cast<std::size_t>(object.system)];
  const Index first = object.offset, size = object.num_dofs();
  Triplets entries;
  if (stiffness) {
    for (const internal::MatrixSource* source : sources)
      if (!AddFieldStiffness(*source->field, node.state, first, size, entries))
        throw UsageError(name + ": couples '" + object.id +
                         "' with another object (expected a force field on one object: "
                         "assemble the solver node's stiffness instead)");
  } else {
    for (const internal::MatrixSource& other : impl_->matrix_sources)
      if (other.kind == ComponentMatrixKind::kMass && other.object == index &&
          other.component != component)
        throw UsageError(name + ": '" + object.id + "' also has the mass of '" + other.component +
                         "' (expected one mass component per object)");
    AddMassBlock(*node.system, first, size, entries);
  }
  SparseMatrix matrix(static_cast<int>(size), static_cast<int>(size));
  matrix.setFromTriplets(entries.begin(), entries.end());
  return matrix;
}

LinearSystemRecord Simulation::LastLinearSystem(std::string_view node_path) const {
  for (const SolverNode& node : impl_->nodes) {
    if (node.node_path != node_path) continue;
    const auto* recorder =
        dynamic_cast<const internal::RecordingLinearSolver*>(node.linear_solver.get());
    if (recorder == nullptr)
      throw UsageError(
          std::string(node_path) +
          ": records no linear system (expected a MatrixLinearSystem in the node of an ODE "
          "solver that solves one: an implicit solver, or an explicit one with a consistent "
          "mass)");
    return recorder->Record();
  }
  throw UsageError(std::string(node_path) + ": no solver node of that path");
}

}  // namespace fluxion
