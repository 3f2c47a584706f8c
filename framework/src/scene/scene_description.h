// The scene file as read, before any interpretation: a tree of nodes holding component elements.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
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

/// Lines of files brought in by <include> are numbered after the scene's own: line L of the
/// k-th included file (k ≥ 1; 0 is the scene) is k·kIncludedLineStride + L, so that one `int`
/// locates every element and attribute, and messages name the right file (SceneDescription::
/// Locate).
inline constexpr int kIncludedLineStride = 1 << 26;
/// At most this many included files per scene (the line numbering above must fit in an int).
inline constexpr int kMaxIncludedFiles = 30;

/// A whole scene file, with the files it includes.
struct SceneDescription {
  std::string file;                   ///< the path as given (for messages)
  std::vector<std::string> included;  ///< included files, as found; index k−1 for file k
  NodeDescription root;
  /// For a scene generated from Python (LoadOptions::python_origins): the Python call of each
  /// element's line (scene/python_origins.h); empty otherwise.
  std::unordered_map<int, std::pair<std::string, int>> python_origins;

  /// The file and its own line number of an element's or attribute's `line`: an included
  /// file's, or the Python call that made the element.
  std::pair<std::string, int> Locate(int line) const {
    const int k = line / kIncludedLineStride;
    if (k == 0 || k > static_cast<int>(included.size())) {
      if (const auto origin = python_origins.find(line); origin != python_origins.end())
        return origin->second;
      return {file, line};
    }
    return {included[static_cast<std::size_t>(k - 1)], line % kIncludedLineStride};
  }
};

}  // namespace fluxion::internal
