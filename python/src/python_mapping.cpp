#include "python_mapping.h"

#include <memory>
#include <optional>

#include "python_components.h"

namespace fluxion::python {

namespace py = pybind11;

PythonMapping::PythonMapping(py::object component, const ObjectModel& parent,
                             const ObjectModel& child)
    : python_(std::move(component)),
      apply_(python_.component().attr("apply")),
      apply_j_(python_.component().attr("applyJ")),
      params_(PythonCallbacks::Params(0.0, 0.0, 0.0)),
      parent_points_(parent.num_points),
      // An output given no points gets the input's, as SOFA's IdentityMapping resizes it.
      child_points_(child.num_points > 0 ? child.num_points : parent.num_points),
      dimension_(parent.dimension),
      unit_(Vector::Zero(parent.num_dofs())),
      column_(Vector::Zero(child_points_ * parent.dimension)),
      scratch_child_(Vector::Zero(child_points_ * parent.dimension)) {}

PythonMapping::~PythonMapping() {
  std::optional<py::gil_scoped_acquire> gil;
  if (Py_IsInitialized() != 0) gil.emplace();
  DropReference(params_);
  DropReference(apply_j_);
  DropReference(apply_);
}

void PythonMapping::JacobianColumn(Index c) const {
  unit_[c] = 1.0;
  column_.setZero();
  python_.Call(apply_j_, "applyJ", params_,
               python_.View(column_.data(), child_points_, dimension_, true, "outDeriv"),
               python_.View(unit_.data(), parent_points_, dimension_, false, "inDeriv"));
  unit_[c] = 0.0;
}

bool PythonMapping::DiscoverJacobian(const double* parent_positions, std::string& why) {
  py::gil_scoped_acquire gil;
  try {
    python_.Call(apply_, "apply", params_,
                 python_.View(scratch_child_.data(), child_points_, dimension_, true, "outCoord"),
                 python_.View(parent_positions, parent_points_, dimension_, false, "inCoord"));
    by_column_.assign(static_cast<std::size_t>(unit_.size()), {});
    for (Index c = 0; c < unit_.size(); ++c) {
      JacobianColumn(c);
      for (Index row = 0; row < column_.size(); ++row) {
        if (column_[row] == 0.0) continue;
        by_column_[static_cast<std::size_t>(c)].emplace_back(entries_.size(), row);
        entries_.push_back({row, c});
      }
    }
  } catch (const std::runtime_error& error) {
    py::module_::import("fluxion.python_components").attr("take_failure")(0, 0.0);
    why = error.what();  // reported here, at the component's line
    return false;
  }
  return true;
}

void PythonMapping::JacobianEntries(std::vector<MatrixEntry>& entries) const {
  entries.insert(entries.end(), entries_.begin(), entries_.end());
}

void PythonMapping::Apply(const double* parent, double* child, double* jacobian) const {
  py::gil_scoped_acquire gil;
  const py::object in = python_.View(parent, parent_points_, dimension_, false, "inCoord");
  python_.Call(apply_, "apply", params_,
               python_.View(child, child_points_, dimension_, true, "outCoord"), in);
  if (jacobian == nullptr) return;
  for (std::size_t c = 0; c < by_column_.size(); ++c) {
    const auto& column_entries = by_column_[c];
    if (column_entries.empty()) continue;
    JacobianColumn(static_cast<Index>(c));
    for (const auto& [k, row] : column_entries) {
      jacobian[k] = column_[row];
      column_[row] = 0.0;
    }
    // What is left is outside the pattern fixed when the scene was built.
    if (column_.size() > 0 && column_.cwiseAbs().maxCoeff() != 0.0)
      python_.Refuse("applyJ", "ValueError",
                     python_.class_name() + ".applyJ gave a nonzero entry in column " +
                         std::to_string(c) +
                         " it did not give when the scene was built (Fluxion fixes the "
                         "Jacobian's pattern then)");
  }
}

ComponentSpec PythonMappingSpec() {
  return ComponentSpec{
      .name = "PythonMapping",
      .kind = ComponentKind::kMapping,
      .summary =
          "A mapping written in Python (Sofa.Core.Mapping_Vec3d_Vec3d in a Python scene, "
          "docs/python.md); never written in XML",
      .fields = {HandleField(),
                 FieldSpec::Link("input",
                                 "the object mapped from (SOFA's default: the parent "
                                 "node's)")
                     .DefaultText("@../"),
                 FieldSpec::Link("output", "the mapped object (SOFA's default: the node's own)")
                     .DefaultText("@./")},
      .aliases = {}};
}

void BuildPythonMapping(BuildContext& context) {
  const ObjectModel* parent = context.LinkedObject("input");
  const ObjectModel* child = context.LinkedObject("output");
  if (parent == nullptr || child == nullptr) return;
  py::gil_scoped_acquire gil;
  const py::object component = StartPythonComponent(context, *parent, "mapping");
  if (component.is_none()) return;
  if (child->dimension != parent->dimension) {
    context.Error("PythonMapping maps onto '" + child->id + "', a Vec" +
                  std::to_string(child->dimension) + "d object (expected Vec" +
                  std::to_string(parent->dimension) + "d, as its input)");
    return;
  }
  auto mapping = std::make_unique<PythonMapping>(component, *parent, *child);
  std::string why;
  if (!mapping->DiscoverJacobian(parent->position.data(), why)) {
    context.Error(why);
    return;
  }
  context.MapObject(*child, *parent, std::move(mapping));
}

}  // namespace fluxion::python
