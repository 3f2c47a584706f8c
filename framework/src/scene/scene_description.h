// The scene file as read, before any interpretation: a tree of nodes holding component elements.
#pragma once

#include <string>
#include <vector>

#include "core/parameter_parsing.h"

namespace fluxion::internal {

/// One component element, e.g. <UniformMass totalMass="10"/>, with its attributes in file order.
struct ElementDescription {
  std::string type;  ///< element name (or the `type` attribute of a legacy <Object type="X">)
  int line = 0;
  std::vector<AttributeText> attributes;

  /// The attribute's text, or nullptr.
  const AttributeText* Find(const std::string& attribute_name) const;
};

/// One <Node>: its own attributes, its components and its child nodes, in file order.
struct NodeDescription {
  std::string name;
  int line = 0;
  std::vector<AttributeText> attributes;  ///< all attributes, `name` included
  std::vector<ElementDescription> components;
  std::vector<NodeDescription> children;
};

/// A whole scene file.
struct SceneDescription {
  std::string file;  ///< the path as given (for messages)
  NodeDescription root;
};

}  // namespace fluxion::internal
