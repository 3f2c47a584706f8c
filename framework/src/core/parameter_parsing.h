// Parsing of component attributes against their declaration, collecting every problem.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fluxion/parameters.h"

namespace fluxion::internal {

/// One attribute as written in the scene (or given as --param key=value).
struct AttributeText {
  std::string name;
  std::string value;
  int line = 0;
};

/// A problem with one attribute.
struct ParameterProblem {
  std::string field;    ///< attribute name as written
  std::string message;  ///< "what is wrong (what was expected)"
  int line = 0;
};

/// Parses one value of `field` from `text` into `value`; returns an error message or "".
std::string ParseFieldValue(const FieldSpec& field, const std::string& text, FieldValue& value);

/// Parses `attributes` against `spec`, appending each problem found to `problems` (with the
/// attribute's line), and returns the values that did parse, with defaults for the rest. Unknown
/// attributes are problems (with a "did you mean" hint); the caller filters out the bookkeeping
/// attributes it ignores before calling.
Parameters ParseAttributes(const ComponentSpec& spec, const std::vector<AttributeText>& attributes,
                           std::vector<ParameterProblem>& problems);

}  // namespace fluxion::internal
