#include "components/affine_movement_projective_constraint.h"

#include <string>

#include "components/projective_helpers.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

// "[a b c,d e f,g h i]" (SOFA's Mat text) or nine plain numbers → the nine numbers, row-major.
bool ParseRotation(const std::string& text, std::vector<double>& matrix, std::string& why) {
  std::string plain = text;
  for (char& c : plain)
    if (c == '[' || c == ']' || c == ',') c = ' ';
  matrix.clear();
  std::size_t i = 0;
  while (i < plain.size()) {
    while (i < plain.size() && plain[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < plain.size() && plain[i] != ' ') ++i;
    if (i == start) break;
    const auto value = ParseReal(std::string_view(plain).substr(start, i - start), &why);
    if (!value) return false;
    matrix.push_back(*value);
  }
  if (matrix.size() != 9) {
    why = "has " + std::to_string(matrix.size()) + " numbers (expected 9: a 3×3 matrix)";
    return false;
  }
  return true;
}

}  // namespace

ComponentSpec AffineMovementProjectiveConstraintComponent::Spec() {
  return ComponentSpec{
      .name = "AffineMovementProjectiveConstraint",
      .kind = ComponentKind::kConstraint,
      .summary = "Moves points to an affine image R·x₀ + T of their initial positions over time",
      .fields = {FieldSpec::IndexList("indices", "points moved"),
                 FieldSpec::IndexList("meshIndices", "points of the mesh (accepted, unused)"),
                 FieldSpec::Real("beginConstraintTime", 0.0, "start of the movement [s]"),
                 FieldSpec::Real("endConstraintTime", 20.0, "end of the movement [s]"),
                 FieldSpec::Text("rotation", "0 0 0 0 0 0 0 0 0",
                                 "3×3 matrix R, row by row (SOFA default: zero)"),
                 FieldSpec::RealList("quaternion", "rigid templates only (accepted, unused)"),
                 FieldSpec::RealList("translation", "translation T [m]").DefaultText("0 0 0")},
      .aliases = {"AffineMovementConstraint"}};
}

void AffineMovementProjectiveConstraintComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (object.dimension != 3) {
    context.Error("AffineMovementProjectiveConstraint needs a Vec3d object ('" + object.id +
                  "' has dimension " + std::to_string(object.dimension) + ")");
    return;
  }
  std::vector<double> rotation, translation;
  std::string why;
  if (!ParseRotation(p.text("rotation"), rotation, why)) {
    context.Error("AffineMovementProjectiveConstraint 'rotation' " + why);
    return;
  }
  if (!ReadVector(context, object, "translation", translation)) return;
  const std::vector<Index> points = ListedPoints(context, object, "indices");
  std::vector<double> initial = InitialPositions(object, points);
  // x_f = R·x₀ + T per point.
  std::vector<double> final_positions(initial.size());
  for (std::size_t q = 0; q < points.size(); ++q)
    for (std::size_t r = 0; r < 3; ++r) {
      double sum = 0.0;
      for (std::size_t c = 0; c < 3; ++c) sum += rotation[r * 3 + c] * initial[q * 3 + c];
      final_positions[q * 3 + r] = sum + translation[r];
    }
  context.AddProjectiveConstraint(object, points,
                                  std::make_unique<InterpolatedMovement>(
                                      points, 3, std::move(initial), std::move(final_positions),
                                      p.real("beginConstraintTime"), p.real("endConstraintTime")));
}

}  // namespace fluxion::internal
