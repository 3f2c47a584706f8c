#include "components/merge_vectors.h"

namespace fluxion::internal {

namespace {
constexpr int kMaxInputs = 8;
}  // namespace

ComponentSpec MergeVectorsComponent::Spec() {
  ComponentSpec spec{
      .name = "MergeVectors",
      .kind = ComponentKind::kEngine,
      .summary = "Concatenates vectors (output for links)",
      .fields = {FieldSpec::Integer("nbInputs", 2, "number of input vectors (at most 8)")
                     .AtLeast(0)
                     .AtMost(kMaxInputs),
                 FieldSpec::Text("template", "vector<double>",
                                 "SOFA's element type: the numbers are concatenated alike")},
      .aliases = {}};
  for (int i = 1; i <= kMaxInputs; ++i)
    spec.fields.push_back(
        FieldSpec::RealList("input" + std::to_string(i), "input vector " + std::to_string(i)));
  return spec;
}

void MergeVectorsComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const int inputs = static_cast<int>(p.integer("nbInputs"));
  bool ok = true;
  for (int i = inputs + 1; i <= kMaxInputs; ++i)
    if (p.has("input" + std::to_string(i))) {
      context.Error("MergeVectors 'input" + std::to_string(i) + "' is beyond nbInputs=" +
                    std::to_string(inputs) + " (expected inputs 1 to nbInputs)");
      ok = false;
    }
  if (!ok) return;
  std::vector<double> output;
  for (int i = 1; i <= inputs; ++i) {
    const std::vector<double>& input = p.reals("input" + std::to_string(i));
    output.insert(output.end(), input.begin(), input.end());
  }
  context.SetOutput("output", std::move(output));
}

}  // namespace fluxion::internal
