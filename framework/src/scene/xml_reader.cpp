#include "scene/xml_reader.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fluxion/errors.h"

namespace fluxion::internal {

const AttributeText* ElementDescription::Find(const std::string& attribute_name) const {
  for (const AttributeText& attribute : attributes)
    if (attribute.name == attribute_name) return &attribute;
  return nullptr;
}

namespace {

// Nesting deeper than this is refused: a hostile scene must not exhaust the stack.
constexpr int kMaxNodeDepth = 200;

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void Fail(int line, const std::string& message) {
    diagnostics_.push_back({file_, line, message});
  }

  std::vector<AttributeText> Attributes(const tinyxml2::XMLElement& element) {
    std::vector<AttributeText> attributes;
    for (const tinyxml2::XMLAttribute* a = element.FirstAttribute(); a != nullptr; a = a->Next())
      attributes.push_back({a->Name(), a->Value(), a->GetLineNum()});
    return attributes;
  }

  void ReadNode(const tinyxml2::XMLElement& element, NodeDescription& node, int depth) {
    node.line = element.GetLineNum();
    node.attributes = Attributes(element);
    for (const AttributeText& attribute : node.attributes)
      if (attribute.name == "name") node.name = attribute.value;
    if (depth > kMaxNodeDepth) {
      Fail(node.line, "nodes are nested more than " + std::to_string(kMaxNodeDepth) +
                          " deep (expected a shallower scene graph)");
      return;
    }
    for (const tinyxml2::XMLElement* child = element.FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      const std::string tag = child->Name();
      if (tag == "Node") {
        node.children.emplace_back();
        ReadNode(*child, node.children.back(), depth + 1);
      } else if (tag == "include") {
        Fail(child->GetLineNum(), "<include> is not supported (expected the components inline)");
      } else {
        ElementDescription component;
        component.line = child->GetLineNum();
        component.type = tag;
        component.attributes = Attributes(*child);
        if (tag == "Object") {  // legacy form <Object type="X" .../>
          component.type.clear();
          std::erase_if(component.attributes, [&](const AttributeText& a) {
            if (a.name != "type") return false;
            component.type = a.value;
            return true;
          });
          if (component.type.empty()) {
            Fail(component.line,
                 "<Object> without a 'type' attribute (expected <Object type=\"X\">)");
            continue;
          }
        }
        if (child->FirstChildElement() != nullptr)
          Fail(component.line, "component <" + component.type +
                                   "> has child elements (expected only <Node> elements to nest)");
        node.components.push_back(std::move(component));
      }
    }
  }

  SceneDescription Read(const std::string& text) {
    tinyxml2::XMLDocument document(true, tinyxml2::COLLAPSE_WHITESPACE);
    SceneDescription scene;
    scene.file = file_;
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; })) {
      Fail(1, "the file is empty (expected a SOFA XML scene with a <Node> root element)");
      throw SceneError(diagnostics_);
    }
    if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      const int line = std::max(document.ErrorLineNum(), 1);  // some errors carry no line
      // "XML_ERROR_MISMATCHED_ELEMENT" -> "mismatched element"
      std::string why = document.ErrorName();
      if (why.rfind("XML_ERROR_", 0) == 0) why = why.substr(10);
      for (char& c : why)
        c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      Fail(line, "malformed XML: " + why + " (expected a well-formed SOFA XML scene)");
      throw SceneError(diagnostics_);
    }
    const tinyxml2::XMLElement* root = document.RootElement();
    if (root == nullptr) {
      Fail(1, "the file holds no XML element (expected a <Node> root)");
      throw SceneError(diagnostics_);
    }
    if (std::string(root->Name()) != "Node") {
      Fail(root->GetLineNum(),
           "the root element is <" + std::string(root->Name()) + "> (expected <Node>)");
      throw SceneError(diagnostics_);
    }
    ReadNode(*root, scene.root, 0);
    if (!diagnostics_.empty()) throw SceneError(diagnostics_);
    return scene;
  }

 private:
  std::string file_;
  std::vector<SceneDiagnostic> diagnostics_;
};

}  // namespace

SceneDescription ReadSceneText(const std::string& text, const std::string& file_name) {
  return Reader(file_name).Read(text);
}

SceneDescription ReadSceneFile(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    throw SceneError({{path, 0, "the scene file does not exist (expected a readable XML file)"}});
  if (std::filesystem::is_directory(path, error))
    throw SceneError({{path, 0, "is a directory (expected a scene file)"}});
  std::ifstream stream(path, std::ios::binary);
  if (!stream)
    throw SceneError(
        {{path, 0, "the scene file cannot be opened for reading (check permissions)"}});
  std::ostringstream content;
  content << stream.rdbuf();
  if (stream.bad()) throw SceneError({{path, 0, "the scene file could not be read"}});
  return ReadSceneText(content.str(), path);
}

}  // namespace fluxion::internal
