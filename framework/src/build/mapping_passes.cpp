#include "build/mapping_passes.h"

#include "mechanics/mapped_force_field.h"

namespace fluxion::internal {

namespace {

using RowMajorMatrix = LinearMapping::RowMajorMatrix;

// The selection of an independent object's DOFs among its system's: S·x_system = x_object.
RowMajorMatrix SystemSelection(const ObjectModel& object, Index system_dofs) {
  RowMajorMatrix selection(object.num_dofs(), system_dofs);
  std::vector<Eigen::Triplet<double, int>> ones;
  ones.reserve(static_cast<std::size_t>(object.num_dofs()));
  for (Index k = 0; k < object.num_dofs(); ++k)
    ones.emplace_back(static_cast<int>(k), static_cast<int>(object.offset + k), 1.0);
  selection.setFromTriplets(ones.begin(), ones.end());
  return selection;
}

}  // namespace

void ComposeMappings(BuildState& state) {
  // Parents first: a mapping whose parent is mapped waits until the parent's is composed
  // (MapObject refused cycles, so every round composes at least one). A nonlinear mapping's
  // parent is independent: its J (the pattern) is placed at the parent's DOFs like a linear one.
  // A multi-mapping's parents (MappedObject::parents) are taken one after another: J's columns
  // are their DOFs, and their selections (or composed Jacobians) are stacked into one.
  for (bool progress = true; progress;) {
    progress = false;
    for (MappedObject& mapped : state.mapped) {
      if (mapped.composed) continue;
      bool ready = true;
      for (const int p : mapped.parents) {
        const MappedObject* above = state.FindMapped(p);
        if (above != nullptr && !above->composed) ready = false;
      }
      if (!ready) continue;
      mapped.composed = true;
      progress = true;
      ObjectModel& child = state.objects[static_cast<std::size_t>(mapped.object)];
      const ObjectModel& first = state.objects[static_cast<std::size_t>(mapped.parent)];
      child.system = first.system;
      bool valid = true;
      for (const int p : mapped.parents) {
        const ObjectModel& parent = state.objects[static_cast<std::size_t>(p)];
        const MappedObject* above = state.FindMapped(p);
        if (above != nullptr && above->nonlinear) {
          state.problems.Scene(mapped.line, "'" + child.id + "' is mapped from '" + parent.id +
                                                "', whose mapping is nonlinear (expected a "
                                                "linear mapping above a mapped object's mapping)");
          valid = false;
        } else if (parent.system != first.system) {
          state.problems.Scene(mapped.line,
                               "'" + child.id + "' is mapped from '" + first.id + "' and '" +
                                   parent.id +
                                   "', which different solvers integrate (expected the inputs of "
                                   "a multi-mapping under one ODE solver, or all static)");
          valid = false;
        }
      }
      if (!valid) continue;
      // x_child = J·x_parents, with the parents' current initial state (also mapped, if they
      // are); a nonlinear mapping's parent is independent: MapObject set the child's state.
      if (!mapped.nonlinear) {
        Index size = 0;
        for (const int p : mapped.parents)
          size += state.objects[static_cast<std::size_t>(p)].num_dofs();
        Vector position(size), velocity(size);
        Index at = 0;
        for (const int p : mapped.parents) {
          const ObjectModel& parent = state.objects[static_cast<std::size_t>(p)];
          position.segment(at, parent.num_dofs()) = parent.position;
          velocity.segment(at, parent.num_dofs()) = parent.velocity;
          at += parent.num_dofs();
        }
        child.position = mapped.jacobian * position;
        child.velocity = mapped.jacobian * velocity;
      }
      if (first.system >= 0) {
        const Index system_dofs = state.parts[static_cast<std::size_t>(first.system)].num_dofs;
        std::vector<Eigen::Triplet<double, int>> stacked;
        int row = 0;
        for (const int p : mapped.parents) {
          const ObjectModel& parent = state.objects[static_cast<std::size_t>(p)];
          const MappedObject* above = state.FindMapped(p);
          const RowMajorMatrix down =
              above != nullptr ? above->jacobian : SystemSelection(parent, system_dofs);
          for (int r = 0; r < down.outerSize(); ++r)
            for (RowMajorMatrix::InnerIterator it(down, r); it; ++it)
              stacked.emplace_back(row + r, static_cast<int>(it.col()), it.value());
          row += static_cast<int>(down.rows());
        }
        RowMajorMatrix down(row, system_dofs);
        down.setFromTriplets(stacked.begin(), stacked.end());
        mapped.jacobian = RowMajorMatrix(mapped.jacobian * down);
      }
      SystemParts& parts = mapped.parts;
      parts.num_dofs = child.num_dofs();
      parts.mass = Vector::Zero(parts.num_dofs);
      parts.fixed.assign(static_cast<std::size_t>(parts.num_dofs), false);
      parts.external_force = child.external_force;
    }
  }
}

void FinalizeMappings(BuildState& state) {
  for (MappedObject& mapped : state.mapped) {
    const ObjectModel& child = state.objects[static_cast<std::size_t>(mapped.object)];
    if (child.system < 0) continue;  // mapped from a static object: nothing moves
    SystemParts& system = state.parts[static_cast<std::size_t>(child.system)];
    const LinearMapping mapping(mapped.jacobian);
    SystemParts& own = mapped.parts;
    if (mapped.nonlinear) {
      const bool has_mass = own.mass.size() > 0 && (own.mass.array() != 0.0).any();
      if (has_mass || !own.mass_couplings.empty() || !own.external_force.isZero(0.0)) {
        state.problems.Scene(mapped.line,
                             "'" + child.id +
                                 "' has a mass or an external force and a nonlinear mapping "
                                 "(expected masses on the object it is mapped from)");
        continue;
      }
    }
    // M += Jᵀ·M_c·J: entry (r, c) of M_c reaches (p, q) with weight J(r, p)·J(c, q) (SOFA
    // assembles a mapped mass this way; its explicit solvers then need a linear solver).
    const auto spread = [&](Index r, Index c, double value) {
      for (Index a = mapping.row_start(r); a < mapping.row_start(r + 1); ++a) {
        for (Index b = mapping.row_start(c); b < mapping.row_start(c + 1); ++b) {
          const Index p = mapping.col(a), q = mapping.col(b);
          const double entry = mapping.weight(a) * mapping.weight(b) * value;
          if (p == q)
            system.mass[p] += entry;
          else
            system.mass_couplings.emplace_back(static_cast<int>(p), static_cast<int>(q), entry);
        }
      }
    };
    for (Index r = 0; r < own.num_dofs; ++r)
      if (own.mass[r] != 0.0) spread(r, r, own.mass[r]);
    for (const auto& coupling : own.mass_couplings)
      spread(coupling.row(), coupling.col(), coupling.value());
    // SOFA's externalForce on the child acts through Jᵀ as well (the system's vector is
    // allocated for the first one).
    if (!own.external_force.isZero(0.0)) {
      if (system.external_force.size() != system.num_dofs)
        system.external_force = Vector::Zero(system.num_dofs);
      mapping.AddTransposed(own.external_force.data(), system.external_force.data());
    }
    MappedRuntime runtime;
    runtime.object = mapped.object;
    runtime.system = child.system;
    const ObjectModel& parent = state.objects[static_cast<std::size_t>(mapped.parent)];
    const auto evaluator = [&] {
      return mapped.nonlinear ? MappingJacobian(mapped.nonlinear, parent.offset, system.num_dofs)
                              : MappingJacobian(mapping);
    };
    if (!own.force_fields.empty()) {
      auto field = std::make_unique<MappedForceField>(evaluator(), std::move(own.force_fields));
      runtime.field = field.get();
      system.force_fields.push_back(std::move(field));
    }
    runtime.mapping = evaluator();
    state.mapped_runtime.push_back(std::move(runtime));
  }
}

}  // namespace fluxion::internal
