#include "components/polynomial_springs_force_field.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "components/point_selection.h"
#include "components/spring_components.h"
#include "mechanics/polynomial_pair_springs.h"

namespace fluxion::internal {

ComponentSpec PolynomialSpringsForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "PolynomialSpringsForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Springs between points of two objects with a polynomial force law",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                             "point type (3 coordinates per point)"),
           FieldSpec::Link("object1", "the object of the first points (default: the node's)"),
           FieldSpec::Link("object2", "the object of the second points (default: the node's)"),
           FieldSpec::IndexList("firstObjectPoints", "points of object1 (default: all)"),
           FieldSpec::IndexList("secondObjectPoints", "points of object2 (default: all)"),
           FieldSpec::RealList("polynomialStiffness",
                               "the coefficients c₁ … c_n of every spring's polynomial, one "
                               "polynomial after the other [N] (default: 100)"),
           FieldSpec::IndexList("polynomialDegree", "each spring's polynomial degree (default: 1)"),
           FieldSpec::Integer("computeZeroLength", 1,
                              "1: rest lengths are the initial distances; else zeroLength"),
           FieldSpec::RealList("zeroLength", "rest lengths: one for all, or one per spring [m]"),
           FieldSpec::Bool("recompute_indices", false, "SOFA option: only 0 is supported"),
           FieldSpec::Bool("compressible", false,
                           "a compressed spring pushes back (as SOFA's code: else it exerts "
                           "nothing)"),
           FieldSpec::Integer("drawMode", 0, "visual only: ignored"),
           FieldSpec::Real("showArrowSize", 0.01, "visual only: ignored"),
           FieldSpec::Text("springColor", "0 1 0 1", "visual only: ignored"),
           FieldSpec::Real("showIndicesScale", 0.02, "visual only: ignored")},
      .aliases = {}};
}

void PolynomialSpringsForceFieldComponent::Build(BuildContext& context) {
  const std::string type = "PolynomialSpringsForceField";
  const SpringEnds ends = ResolveSpringEnds(context);
  if (ends.first == nullptr || ends.second == nullptr) return;
  const ObjectModel& a = *ends.first;
  const ObjectModel& b = *ends.second;
  const Parameters& p = context.parameters();
  if (p.flag("recompute_indices")) {
    context.Error(type + " 'recompute_indices' is 1 (expected 0: the points do not change)");
    return;
  }
  // The points of each side: the list, else every point of the object.
  const auto points = [](const std::vector<Index>& listed, const ObjectModel& object) {
    std::vector<Index> all = listed;
    if (all.empty())
      for (Index i = 0; i < object.num_points; ++i) all.push_back(i);
    return all;
  };
  const std::vector<Index> first = points(p.indices("firstObjectPoints"), a);
  const std::vector<Index> second = points(p.indices("secondObjectPoints"), b);
  if (first.size() > second.size()) {
    context.Error(type + " has " + std::to_string(first.size()) + " first points and " +
                  std::to_string(second.size()) +
                  " second points (expected at least as many second points)");
    return;
  }
  for (const Index i : first)
    if (!CheckIndex(context, i, a, "firstObjectPoints")) return;
  for (std::size_t k = 0; k < first.size(); ++k)
    if (!CheckIndex(context, second[k], b, "secondObjectPoints")) return;

  // The polynomials, their coefficients one after the other in polynomialStiffness.
  std::vector<double> coefficients = p.reals("polynomialStiffness");
  if (coefficients.empty()) coefficients = {100.0};
  std::vector<Index> degrees = p.indices("polynomialDegree");
  if (degrees.empty()) degrees = {1};
  std::vector<std::vector<double>> polynomials;
  std::size_t next = 0;
  for (const Index degree : degrees) {
    if (static_cast<std::size_t>(degree) > coefficients.size() - next) {
      context.Error(type + " 'polynomialStiffness' has " + std::to_string(coefficients.size()) +
                    " coefficients (expected one per degree of each polynomial: at least " +
                    std::to_string(next + static_cast<std::size_t>(degree)) + ")");
      return;
    }
    polynomials.emplace_back(coefficients.begin() + static_cast<std::ptrdiff_t>(next),
                             coefficients.begin() + static_cast<std::ptrdiff_t>(next + degree));
    next += static_cast<std::size_t>(degree);
  }
  const bool one_each = degrees.size() == first.size();
  if (!one_each)
    context.Warn(type + " has " + std::to_string(degrees.size()) + " polynomial degree(s) for " +
                 std::to_string(first.size()) +
                 " springs: every spring uses the first polynomial "
                 "(as SOFA)");

  const std::vector<double>& zero = p.reals("zeroLength");
  const bool initial = p.integer("computeZeroLength") == 1;
  if (!initial && zero.empty()) {
    context.Error(type +
                  " 'computeZeroLength' is not 1 and 'zeroLength' is empty (expected the "
                  "rest lengths)");
    return;
  }
  std::vector<PolynomialPairSpring> springs;
  for (std::size_t k = 0; k < first.size(); ++k) {
    PolynomialPairSpring spring;
    spring.a = a.offset + first[k] * a.dimension;
    spring.b = b.offset + second[k] * b.dimension;
    spring.coefficients = polynomials[one_each ? k : 0];
    if (initial) {
      double norm2 = 0.0;
      for (int c = 0; c < a.dimension; ++c) {
        const double d =
            b.position[second[k] * b.dimension + c] - a.position[first[k] * a.dimension + c];
        norm2 += d * d;
      }
      spring.rest_length = std::sqrt(norm2);
    } else {
      spring.rest_length = zero.size() > 1 ? zero[std::min(k, zero.size() - 1)] : zero[0];
    }
    if (!(spring.rest_length > 0)) {
      context.Error(type + ": spring " + std::to_string(k) + " has the rest length " +
                    std::to_string(spring.rest_length) +
                    " (expected a length > 0: the strain "
                    "divides by it)");
      return;
    }
    springs.push_back(std::move(spring));
  }
  if (!context.ReserveSprings(springs.size()) || !ends.usable || springs.empty()) return;
  context.AddForceField(a, std::make_unique<PolynomialPairSprings>(a.dimension, std::move(springs),
                                                                   p.flag("compressible")));
}

}  // namespace fluxion::internal
