#include "components/polynomial_rest_shape_springs_force_field.h"

#include "mechanics/polynomial_springs.h"

namespace fluxion::internal {

ComponentSpec PolynomialRestShapeSpringsForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "PolynomialRestShapeSpringsForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs to rest positions with a polynomial force law",
      .fields =
          {FieldSpec::IndexList("points", "points pulled (default: all)"),
           FieldSpec::IndexList("external_points", "only supported empty"),
           FieldSpec::Link("external_rest_shape", "only supported empty (the object's own rest)"),
           FieldSpec::RealList("polynomialStiffness",
                               "coefficients c1 c2 … of each polynomial, one after the other "
                               "(default 100) [N]"),
           FieldSpec::IndexList("polynomialDegree",
                                "degree of each polynomial, one per point or one (default 1)"),
           FieldSpec::RealList("initialLength",
                               "length dividing the elongation into a strain, one per point or "
                               "one (default 1) [m]"),
           FieldSpec::Real("smoothShift", 0.0, "D = sqrt(L² + exp(shift − scale·L²))"),
           FieldSpec::Real("smoothScale", 1.0, "D = sqrt(L² + exp(shift − scale·L²)) [1/m²]"),
           FieldSpec::Bool("recompute_indices", false, "SOFA option: the points are static here"),
           FieldSpec::Text("springColor", "", "visual only: ignored"),
           FieldSpec::Bool("exactStiffness", false,
                           "Fluxion: the exact tangent stiffness instead of SOFA's diagonal")},
      .aliases = {}};
}

void PolynomialRestShapeSpringsForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const char* kType = "PolynomialRestShapeSpringsForceField";
  if (!p.indices("external_points").empty() ||
      (p.has("external_rest_shape") && !p.text("external_rest_shape").empty())) {
    context.Error(std::string(kType) +
                  ": a rest shape from another object is not supported yet (expected the "
                  "object's own rest positions)");
    return;
  }
  std::vector<Index> points = p.indices("points");
  if (points.empty())
    for (Index i = 0; i < object.num_points; ++i) points.push_back(i);
  std::vector<double> coefficients = p.reals("polynomialStiffness");
  if (coefficients.empty()) coefficients = {100.0};
  std::vector<Index> degrees = p.indices("polynomialDegree");
  if (degrees.empty()) degrees = {1};
  std::vector<double> lengths = p.reals("initialLength");
  if (lengths.empty()) lengths = {1.0};
  // The polynomials, each its degree's run of coefficients.
  std::vector<std::vector<double>> polynomials;
  std::size_t next = 0;
  for (const Index degree : degrees) {
    const std::size_t n = static_cast<std::size_t>(degree);
    if (next + n > coefficients.size()) {
      context.Error(std::string(kType) + " 'polynomialStiffness' has " +
                    std::to_string(coefficients.size()) +
                    " coefficients (expected at least the sum of 'polynomialDegree')");
      return;
    }
    polynomials.emplace_back(coefficients.begin() + static_cast<std::ptrdiff_t>(next),
                             coefficients.begin() + static_cast<std::ptrdiff_t>(next + n));
    next += n;
  }
  const bool one_per_point = degrees.size() == points.size();
  const int dim = object.dimension;
  std::vector<PolynomialSpring> springs;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Index point = points[i];
    if (point >= object.num_points) {
      context.Error(std::string(kType) + " 'points' has " + std::to_string(point) +
                    " (expected indices below the object's " + std::to_string(object.num_points) +
                    " points)");
      return;
    }
    const double length = i < lengths.size() ? lengths[i] : lengths[0];
    if (!(length != 0.0)) {
      context.Error(std::string(kType) + " 'initialLength' has 0 (expected non-zero lengths)");
      return;
    }
    PolynomialSpring spring{.first = object.offset + point * dim,
                            .rest = {},
                            .coefficients = polynomials[one_per_point ? i : 0],
                            .initial_length = length};
    for (int a = 0; a < dim; ++a) spring.rest.push_back(object.rest_position[point * dim + a]);
    springs.push_back(std::move(spring));
  }
  context.AddForceField(object, std::make_unique<PolynomialRestShapeSprings>(
                                    dim, std::move(springs), p.real("smoothShift"),
                                    p.real("smoothScale"), p.flag("exactStiffness")));
}

}  // namespace fluxion::internal
