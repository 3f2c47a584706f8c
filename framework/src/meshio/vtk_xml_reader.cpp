// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshVTKLoader.cpp (XMLVTKReader:
// readFile, loadDataArray, loadUnstructuredGrid, loadPolydata; setInputsMesh) and
// BaseVTKReader.inl (VTKDataIO::read). What SOFA reads: <VTKFile type="UnstructuredGrid"> or
// "PolyData"; in each Piece, Points (NumberOfPoints × 3 values, read as doubles whatever the
// declared type), Cells (connectivity, offsets, types: cells kept as the legacy reader keeps them,
// vtk_cells.h) or Polys (connectivity, offsets: 2 vertices an edge, 3 a triangle, 4 a quad, more a
// SOFA polyline, skipped here); PointData and CellData become extra data Fluxion has no use for
// (ignored), as are Verts, Lines and Strips (counted as skipped elements).
// Deliberate differences:
// - binary DataArrays are decoded as VTK writes them (inline base64 of a UInt32 or UInt64 byte
//   count, or of vtkZLibDataCompressor's block header and zlib blocks, in the file's byte_order).
//   SOFA's reader copies the base64 text itself as the binary values, which cannot give the mesh.
//   format="appended", other compressors and other dataset types are refused with one line;
// - a cell's vertex count is the difference of its offsets (SOFA reads the count from the
//   connectivity's first value, which is a vertex: only its triangle strips and polygons differ);
// - exactly one Piece (SOFA reads every Piece but keeps the last one's arrays only);
// - every count and index is checked: NumberOfPoints and NumberOfCells must match the arrays, the
//   offsets must rise to the connectivity's end, vertices must exist (SOFA reads out of range).
// The file is untrusted: every array's size is known from the counts before it is decoded
// (points from NumberOfPoints, offsets and types from NumberOfCells, connectivity from the last
// offset), checked against the memory budget and against what the file's bytes can hold, and a
// binary array's declared size must be that one; zlib blocks are inflated in bounded chunks and
// may not claim more than deflate can produce.
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "core/text_parsing.h"
#include "meshio/mesh_readers.h"
#include "meshio/mesh_text.h"
#include "meshio/vtk_cells.h"

namespace fluxion::internal {

namespace {

// The numeric types of VTK XML (and SOFA's older names for them), in any case, as SOFA compares
// them (BaseVTKReader::newVTKDataIO).
enum class Kind { kSigned, kUnsigned, kReal };
struct ValueType {
  Kind kind;
  std::size_t size;  // bytes
};

std::optional<ValueType> TypeNamed(std::string_view name) {
  struct Entry {
    const char* vtk;
    const char* sofa;
    ValueType type;
  };
  static constexpr Entry kTypes[] = {
      {"Int8", "char", {Kind::kSigned, 1}},   {"UInt8", "unsigned_char", {Kind::kUnsigned, 1}},
      {"Int16", "short", {Kind::kSigned, 2}}, {"UInt16", "unsigned_short", {Kind::kUnsigned, 2}},
      {"Int32", "int", {Kind::kSigned, 4}},   {"UInt32", "unsigned_int", {Kind::kUnsigned, 4}},
      {"Int64", "long", {Kind::kSigned, 8}},  {"UInt64", "unsigned_long", {Kind::kUnsigned, 8}},
      {"Float32", "float", {Kind::kReal, 4}}, {"Float64", "double", {Kind::kReal, 8}}};
  const auto same = [](std::string_view a, std::string_view b) {
    return std::ranges::equal(a, b, [](char x, char y) {
      return std::tolower(static_cast<unsigned char>(x)) ==
             std::tolower(static_cast<unsigned char>(y));
    });
  };
  for (const Entry& entry : kTypes)
    if (same(name, entry.vtk) || same(name, entry.sofa)) return entry.type;
  return std::nullopt;
}

// deflate never expands more than about 1032:1 (zlib's technical details): a block that claims
// more, plus this slack for tiny blocks, is a lying header.
constexpr std::size_t kMaxInflateRatio = 1032;
constexpr std::size_t kInflateSlack = 1024;
// Output window of the streaming inflate: memory grows with what a block really produces.
constexpr std::size_t kInflateChunk = std::size_t{1} << 16;

class VtkXmlReader {
 public:
  VtkXmlReader(std::string_view bytes, const std::string& file, MeshNotes& notes,
               const MeshBudget& budget)
      : bytes_(bytes),
        text_(bytes, file),
        notes_(notes),
        budget_(budget),
        values_left_(static_cast<double>(budget.max_points) * kMeshValuesPerPoint) {}

  Topology Read() {
    tinyxml2::XMLDocument document(true, tinyxml2::PRESERVE_WHITESPACE);
    if (document.Parse(bytes_.data(), bytes_.size()) != tinyxml2::XML_SUCCESS)
      text_.FailAt(document.ErrorLineNum(),
                   std::string("the XML is malformed (tinyxml2: ") +
                       tinyxml2::XMLDocument::ErrorIDToName(document.ErrorID()) +
                       "; expected a well-formed VTK XML file)");
    const tinyxml2::XMLElement* root = document.RootElement();
    if (root == nullptr || std::strcmp(root->Name(), "VTKFile") != 0)
      text_.FailAt(root ? root->GetLineNum() : 1,
                   "the root element is not <VTKFile> (expected "
                   "<VTKFile type=\"UnstructuredGrid\"> or "
                   "\"PolyData\")");
    ReadFileAttributes(*root);
    const std::string type = Attribute(*root, "type");
    if (type != "UnstructuredGrid" && type != "PolyData")
      text_.FailAt(root->GetLineNum(), "a VTK XML dataset of type '" + Shown(type, 40) +
                                           "' (expected UnstructuredGrid or PolyData, as SOFA "
                                           "reads)");
    const tinyxml2::XMLElement* dataset = root->FirstChildElement(type.c_str());
    if (dataset == nullptr)
      text_.FailAt(root->GetLineNum(), "no <" + type + "> element in <VTKFile> (expected one)");
    const tinyxml2::XMLElement* piece = dataset->FirstChildElement("Piece");
    if (piece == nullptr)
      text_.FailAt(dataset->GetLineNum(), "no <Piece> in <" + type + "> (expected one)");
    if (const tinyxml2::XMLElement* second = piece->NextSiblingElement("Piece"))
      text_.FailAt(second->GetLineNum(),
                   "a second <Piece> (expected one: SOFA keeps only the last piece's arrays)");
    if (type == "UnstructuredGrid")
      ReadGrid(*piece);
    else
      ReadPolyData(*piece);
    return std::move(mesh_);
  }

 private:
  // --- attributes ------------------------------------------------------------------------------
  static std::string Attribute(const tinyxml2::XMLElement& element, const char* name) {
    const char* value = element.Attribute(name);
    return value ? value : "";
  }

  void ReadFileAttributes(const tinyxml2::XMLElement& root) {
    const std::string order = Attribute(root, "byte_order");
    if (order.empty() || order == "LittleEndian")
      little_endian_ = true;
    else if (order == "BigEndian")
      little_endian_ = false;
    else
      text_.FailAt(root.GetLineNum(),
                   "byte_order '" + Shown(order, 40) + "' (expected LittleEndian or BigEndian)");
    const std::string header = Attribute(root, "header_type");
    if (header.empty() || header == "UInt32")
      header_size_ = 4;
    else if (header == "UInt64")
      header_size_ = 8;
    else
      text_.FailAt(root.GetLineNum(),
                   "header_type '" + Shown(header, 40) + "' (expected UInt32 or UInt64)");
    compressor_ = Attribute(root, "compressor");
    compressor_line_ = root.GetLineNum();
  }

  // A whole number ≥ 0 from an attribute of `element`; `fallback` when absent (or an error when
  // there is none).
  long Count(const tinyxml2::XMLElement& element, const char* name,
             std::optional<long> fallback) const {
    const char* text = element.Attribute(name);
    if (text == nullptr) {
      if (fallback) return *fallback;
      text_.FailAt(element.GetLineNum(), std::string("<") + element.Name() + "> has no " + name +
                                             " (expected " + name + "=\"n\")");
    }
    const std::optional<long> value = ParseInteger(text);
    if (!value || *value < 0)
      text_.FailAt(element.GetLineNum(),
                   std::string(name) + " '" + Shown(text, 40) + "' is not a whole number ≥ 0");
    return *value;
  }

  // --- the two datasets ------------------------------------------------------------------------
  void ReadPoints(const tinyxml2::XMLElement& piece) {
    const long n = Count(piece, "NumberOfPoints", std::nullopt);
    if (n > budget_.max_points)
      text_.FailAt(piece.GetLineNum(), "NumberOfPoints=" + std::to_string(n) +
                                           " is more than the memory budget allows (expected " +
                                           budget_.text + ")");
    const tinyxml2::XMLElement* points = piece.FirstChildElement("Points");
    if (points == nullptr) {
      if (n > 0)
        text_.FailAt(piece.GetLineNum(), "no <Points> for NumberOfPoints=" + std::to_string(n) +
                                             " (expected a <Points> element)");
      return;
    }
    const tinyxml2::XMLElement* array = points->FirstChildElement("DataArray");
    if (array == nullptr)
      text_.FailAt(points->GetLineNum(), "<Points> has no <DataArray> (expected the coordinates)");
    if (Count(*array, "NumberOfComponents", 1) != 3)
      text_.FailAt(array->GetLineNum(), "points with NumberOfComponents=" +
                                            Shown(Attribute(*array, "NumberOfComponents"), 20) +
                                            " (expected 3: x y z)");
    const std::vector<double> xyz = Reals(*array, 3 * static_cast<std::uint64_t>(n));
    mesh_.points.reserve(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < xyz.size(); i += 3)
      mesh_.points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  }

  // The DataArray named `name` among `parent`'s children, or null.
  static const tinyxml2::XMLElement* Named(const tinyxml2::XMLElement& parent, const char* name) {
    for (const tinyxml2::XMLElement* array = parent.FirstChildElement("DataArray"); array;
         array = array->NextSiblingElement("DataArray"))
      if (Attribute(*array, "Name") == name) return array;
    return nullptr;
  }
  const tinyxml2::XMLElement& Required(const tinyxml2::XMLElement& parent, const char* name) const {
    const tinyxml2::XMLElement* array = Named(parent, name);
    if (array == nullptr)
      text_.FailAt(parent.GetLineNum(),
                   std::string("<") + parent.Name() + "> has no DataArray Name=\"" + name +
                       "\" (expected connectivity and offsets" +
                       (std::strcmp(parent.Name(), "Cells") == 0 ? " and types)" : ")"));
    return *array;
  }

  // A cell array's offsets, then its connectivity: `cells` offsets that never decrease, whose
  // last is the connectivity's size (so that each array's size is known before it is decoded).
  struct CellArrays {
    std::vector<std::int64_t> connectivity, offsets;
  };
  CellArrays ReadCellArrays(const tinyxml2::XMLElement& parent, long cells) {
    CellArrays arrays;
    const tinyxml2::XMLElement& offsets = Required(parent, "offsets");
    arrays.offsets = Integers(offsets, static_cast<std::uint64_t>(cells));
    std::int64_t previous = 0;
    for (const std::int64_t offset : arrays.offsets) {
      if (offset < previous)
        text_.FailAt(offsets.GetLineNum(), "offset " + std::to_string(offset) + " after " +
                                               std::to_string(previous) +
                                               " (expected offsets that never decrease)");
      previous = offset;
    }
    arrays.connectivity =
        Integers(Required(parent, "connectivity"), static_cast<std::uint64_t>(previous));
    return arrays;
  }

  void ReadGrid(const tinyxml2::XMLElement& piece) {
    ReadPoints(piece);
    const long n = Count(piece, "NumberOfCells", 0);
    const tinyxml2::XMLElement* cells = piece.FirstChildElement("Cells");
    if (cells == nullptr) {
      if (n > 0)
        text_.FailAt(piece.GetLineNum(), "no <Cells> for NumberOfCells=" + std::to_string(n) +
                                             " (expected a <Cells> element)");
      return;
    }
    const CellArrays arrays = ReadCellArrays(*cells, n);
    const std::vector<std::int64_t> types =
        Integers(Required(*cells, "types"), static_cast<std::uint64_t>(n));
    AddCells(
        arrays.connectivity, arrays.offsets, [&](std::size_t c) { return types[c]; }, *cells);
  }

  void ReadPolyData(const tinyxml2::XMLElement& piece) {
    ReadPoints(piece);
    for (const char* kind : {"Verts", "Lines", "Strips"})
      notes_.skipped_elements += Skipped(piece, kind);
    const long n = Count(piece, "NumberOfPolys", 0);
    const tinyxml2::XMLElement* polys = piece.FirstChildElement("Polys");
    if (polys == nullptr) {
      if (n > 0)
        text_.FailAt(piece.GetLineNum(), "no <Polys> for NumberOfPolys=" + std::to_string(n) +
                                             " (expected a <Polys> element)");
      return;
    }
    const CellArrays arrays = ReadCellArrays(*polys, n);
    const std::vector<std::int64_t>& offsets = arrays.offsets;
    // SOFA gives each polygon the cell type its vertex count implies (XMLVTKReader::
    // parsePolysIndices): 2 a line, 3 a triangle, 4 a quad, anything else a polyline.
    AddCells(
        arrays.connectivity, offsets,
        [&](std::size_t c) -> std::int64_t {
          const std::int64_t nv = offsets[c] - (c == 0 ? 0 : offsets[c - 1]);
          return nv == 2 ? 3 : nv == 3 ? 5 : nv == 4 ? 9 : 4;
        },
        *polys);
  }

  // The cells of a kind SOFA skips (Verts, Lines, Strips), counted from the offsets the file
  // holds, not from its declaration alone: a warning never reports elements that are not there.
  long Skipped(const tinyxml2::XMLElement& piece, const char* kind) {
    const long n = Count(piece, (std::string("NumberOf") + kind).c_str(), 0);
    if (n == 0) return 0;
    const tinyxml2::XMLElement* cells = piece.FirstChildElement(kind);
    if (cells == nullptr)
      text_.FailAt(piece.GetLineNum(), std::string("no <") + kind + "> for NumberOf" + kind + "=" +
                                           std::to_string(n) + " (expected a <" + kind +
                                           "> element)");
    return static_cast<long>(ReadCellArrays(*cells, n).offsets.size());
  }

  template <class TypeOf>
  void AddCells(const std::vector<std::int64_t>& connectivity,
                const std::vector<std::int64_t>& offsets, TypeOf type_of,
                const tinyxml2::XMLElement& where) {
    const std::vector<Index> vertices(connectivity.begin(), connectivity.end());
    const Index points = static_cast<Index>(mesh_.points.size());
    for (std::size_t c = 0; c < offsets.size(); ++c) {
      const std::size_t begin = c == 0 ? 0 : static_cast<std::size_t>(offsets[c - 1]);
      const std::size_t end = static_cast<std::size_t>(offsets[c]);
      const std::string problem =
          AddVtkCell(static_cast<long>(type_of(c)), std::span(vertices).subspan(begin, end - begin),
                     points, mesh_, notes_);
      if (!problem.empty())
        text_.FailAt(where.GetLineNum(), "cell " + std::to_string(c) + ": " + problem);
    }
  }

  // --- DataArrays ------------------------------------------------------------------------------
  struct Array {
    ValueType type;
    bool binary = false;
    std::string_view text;  // the element's text (ascii values or base64)
    int line = 1;           // where the text starts
  };

  Array Open(const tinyxml2::XMLElement& element) const {
    Array array;
    const std::string type = Attribute(element, "type");
    const std::optional<ValueType> value_type = TypeNamed(type);
    if (!value_type)
      text_.FailAt(element.GetLineNum(),
                   "DataArray type '" + Shown(type, 40) +
                       "' (expected Int8 … Int64, UInt8 … UInt64, Float32 or Float64)");
    array.type = *value_type;
    std::string format = Attribute(element, "format");
    if (format.empty()) format = Attribute(element, "Format");  // SOFA accepts both spellings
    if (format == "binary")
      array.binary = true;
    else if (format == "appended")
      text_.FailAt(element.GetLineNum(),
                   "a DataArray in appended format (expected ascii or "
                   "binary: appended data is not read)");
    else if (format != "ascii")
      text_.FailAt(element.GetLineNum(),
                   "DataArray format '" + Shown(format, 40) + "' (expected ascii or binary)");
    array.line = element.GetLineNum();
    if (const tinyxml2::XMLNode* child = element.FirstChild()) {
      if (const tinyxml2::XMLText* text = child->ToText()) {
        array.text = text->Value();
        // tinyxml2 gives the line of the text's first non-blank character; the counting in
        // ForEachWord starts at the text's first character.
        const std::string_view lead = array.text.substr(
            0, std::min(array.text.find_first_not_of(" \t\r\n"), array.text.size()));
        array.line = text->GetLineNum() - static_cast<int>(std::ranges::count(lead, '\n'));
      }
    }
    return array;
  }

  // Counts an array's `values` (as its counts declare them) against the memory budget, then
  // against what the file's bytes can hold (an ascii value takes 2 bytes, a compressed one at
  // least 1/kMaxInflateRatio), before anything is decoded.
  void Charge(const Array& array, const std::string& name, std::uint64_t values) {
    const double wanted = static_cast<double>(values);
    if (wanted > values_left_)
      text_.FailAt(array.line, "DataArray '" + Shown(name, 40) + "' should hold " +
                                   std::to_string(values) +
                                   " values by the counts, more than the memory budget leaves "
                                   "(expected at most " +
                                   std::to_string(static_cast<std::uint64_t>(kMeshValuesPerPoint)) +
                                   " values per point, " + budget_.text + ")");
    if (wanted > static_cast<double>(bytes_.size()) * kMaxInflateRatio)
      text_.FailAt(array.line, "DataArray '" + Shown(name, 40) + "' should hold " +
                                   std::to_string(values) + " values by the counts, more than a " +
                                   std::to_string(bytes_.size()) +
                                   "-byte file can hold (expected counts the file's data can "
                                   "match)");
    values_left_ -= wanted;
  }

  // The array's values as doubles (points: SOFA reads them as Float64 whatever their type),
  // exactly `expected` of them.
  std::vector<double> Reals(const tinyxml2::XMLElement& element, std::uint64_t expected) {
    const Array array = Open(element);
    const std::string name = "points";
    Charge(array, name, expected);
    std::vector<double> values;
    if (!array.binary) {
      ForEachWord(array, [&](std::string_view word, int line) {
        if (values.size() == expected) TooMany(line, name, expected);
        std::string why;
        const std::optional<double> value = ParseReal(word, &why);
        if (!value)
          text_.FailAt(line, "coordinate '" + Shown(word, 40) + "' is " + why +
                                 " (expected a finite number)");
        values.push_back(*value);
      });
      if (values.size() != expected) TooFew(array.line, name, values.size(), expected);
      return values;
    }
    const std::vector<unsigned char> bytes = Binary(array, expected);
    values.reserve(expected);
    for (std::size_t at = 0; at < bytes.size(); at += array.type.size) {
      double value = 0;
      switch (array.type.kind) {
        case Kind::kSigned:
          value = static_cast<double>(Signed(&bytes[at], array.type.size));
          break;
        case Kind::kUnsigned:
          value = static_cast<double>(Unsigned(&bytes[at], array.type.size));
          break;
        case Kind::kReal:
          if (array.type.size == 4) {
            const std::uint32_t raw = static_cast<std::uint32_t>(Unsigned(&bytes[at], 4));
            value = std::bit_cast<float>(raw);
          } else {
            value = std::bit_cast<double>(Unsigned(&bytes[at], 8));
          }
          break;
      }
      if (!std::isfinite(value))
        text_.FailAt(array.line, "a coordinate is not finite (expected finite numbers)");
      values.push_back(value);
    }
    return values;
  }

  // The array's values as whole numbers ≥ 0 (connectivity, offsets, types), exactly `expected`
  // of them.
  std::vector<std::int64_t> Integers(const tinyxml2::XMLElement& element, std::uint64_t expected) {
    const Array array = Open(element);
    const std::string name = Attribute(element, "Name");
    if (array.type.kind == Kind::kReal)
      text_.FailAt(array.line, "DataArray '" + Shown(name, 40) + "' of type " +
                                   Shown(Attribute(element, "type"), 40) +
                                   " (expected an integer type)");
    Charge(array, name, expected);
    std::vector<std::int64_t> values;
    const auto fail_negative = [&](int line, const std::string& value) {
      text_.FailAt(line, Shown(name, 40) + " value " + value + " (expected a whole number ≥ 0)");
    };
    if (!array.binary) {
      ForEachWord(array, [&](std::string_view word, int line) {
        if (values.size() == expected) TooMany(line, name, expected);
        const std::optional<long> value = ParseInteger(word);
        if (!value || *value < 0) fail_negative(line, "'" + Shown(word, 40) + "'");
        values.push_back(*value);
      });
      if (values.size() != expected) TooFew(array.line, name, values.size(), expected);
      return values;
    }
    const std::vector<unsigned char> bytes = Binary(array, expected);
    values.reserve(expected);
    for (std::size_t at = 0; at < bytes.size(); at += array.type.size) {
      if (array.type.kind == Kind::kSigned) {
        const std::int64_t value = Signed(&bytes[at], array.type.size);
        if (value < 0) fail_negative(array.line, std::to_string(value));
        values.push_back(value);
      } else {
        const std::uint64_t value = Unsigned(&bytes[at], array.type.size);
        if (value > static_cast<std::uint64_t>(INT64_MAX))
          fail_negative(array.line, std::to_string(value));
        values.push_back(static_cast<std::int64_t>(value));
      }
    }
    return values;
  }

  // An ascii array with more or fewer values than its counts say.
  [[noreturn]] void TooMany(int line, const std::string& name, std::uint64_t expected) const {
    text_.FailAt(line, "DataArray '" + Shown(name, 40) + "' holds more than the " +
                           std::to_string(expected) + " values its counts declare (expected " +
                           std::to_string(expected) + ")");
  }
  [[noreturn]] void TooFew(int line, const std::string& name, std::size_t found,
                           std::uint64_t expected) const {
    text_.FailAt(line, "DataArray '" + Shown(name, 40) + "' holds " + std::to_string(found) +
                           " values (expected " + std::to_string(expected) +
                           ", as its counts declare)");
  }

  // Calls `use(word, line)` for each whitespace-separated word of an ascii array.
  template <class Use>
  void ForEachWord(const Array& array, Use use) const {
    int line = array.line;
    std::size_t at = 0;
    const std::string_view text = array.text;
    while (at < text.size()) {
      const char c = text[at];
      if (c == '\n') ++line;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++at;
        continue;
      }
      std::size_t end = at;
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n' &&
             text[end] != '\r')
        ++end;
      use(text.substr(at, end - at), line);
      at = end;
    }
  }

  // --- binary arrays ---------------------------------------------------------------------------
  // An unsigned number of `size` bytes in the file's byte order.
  std::uint64_t Unsigned(const unsigned char* p, std::size_t size) const {
    std::uint64_t value = 0;
    for (std::size_t k = 0; k < size; ++k) {
      const std::size_t byte = little_endian_ ? size - 1 - k : k;
      value = (value << 8) | p[byte];
    }
    return value;
  }
  std::int64_t Signed(const unsigned char* p, std::size_t size) const {
    const std::uint64_t value = Unsigned(p, size);
    if (size == 8) return static_cast<std::int64_t>(value);
    const std::uint64_t sign = std::uint64_t{1} << (8 * size - 1);
    return static_cast<std::int64_t>(value ^ sign) - static_cast<std::int64_t>(sign);
  }

  // Base64 in groups of 4 characters; a group may end in '=' padding anywhere, as VTK writes the
  // header and the data as two separate base64 runs. Whitespace is skipped.
  std::vector<unsigned char> Base64(const Array& array) const {
    std::vector<unsigned char> bytes;
    int group[4];
    int filled = 0, padding = 0;
    for (const char c : array.text) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
      int value = -1;
      if (c >= 'A' && c <= 'Z')
        value = c - 'A';
      else if (c >= 'a' && c <= 'z')
        value = c - 'a' + 26;
      else if (c >= '0' && c <= '9')
        value = c - '0' + 52;
      else if (c == '+')
        value = 62;
      else if (c == '/')
        value = 63;
      else if (c == '=' && filled >= 2)
        value = 0, ++padding;
      if (value < 0 || (padding > 0 && c != '='))
        text_.FailAt(array.line, "a binary DataArray holds '" + Shown(std::string_view(&c, 1)) +
                                     "' (expected base64 text)");
      group[filled++] = value;
      if (filled == 4) {
        const std::uint32_t triple = (std::uint32_t(group[0]) << 18) |
                                     (std::uint32_t(group[1]) << 12) |
                                     (std::uint32_t(group[2]) << 6) | std::uint32_t(group[3]);
        bytes.push_back(static_cast<unsigned char>(triple >> 16));
        if (padding < 2) bytes.push_back(static_cast<unsigned char>((triple >> 8) & 0xff));
        if (padding < 1) bytes.push_back(static_cast<unsigned char>(triple & 0xff));
        filled = padding = 0;
      }
    }
    if (filled != 0)
      text_.FailAt(array.line,
                   "a binary DataArray's base64 text ends inside a group (expected "
                   "a multiple of 4 characters)");
    return bytes;
  }

  // The raw values of a binary array, `expected` values as its counts declare: a byte count
  // then the bytes, or zlib blocks. The declared size must be that one before anything is
  // copied or inflated.
  std::vector<unsigned char> Binary(const Array& array, std::uint64_t expected) const {
    // Charge() bounded `expected` by the file's size: this product cannot overflow.
    const std::uint64_t size = expected * array.type.size;
    const std::vector<unsigned char> bytes = Base64(array);
    const std::size_t h = header_size_;
    const auto header = [&](std::size_t k) { return Unsigned(&bytes[k * h], h); };
    const auto check_declared = [&](std::uint64_t declared) {
      if (declared != size)
        text_.FailAt(array.line, "a binary DataArray declares " + std::to_string(declared) +
                                     " bytes (expected " + std::to_string(size) + ": " +
                                     std::to_string(expected) + " values of " +
                                     std::to_string(array.type.size) +
                                     " bytes, as its counts declare)");
    };
    if (compressor_.empty()) {
      if (bytes.size() < h)
        text_.FailAt(array.line, "a binary DataArray without its byte count (expected a " +
                                     std::to_string(h) + "-byte header)");
      check_declared(header(0));
      if (size != bytes.size() - h)
        text_.FailAt(array.line, "a binary DataArray declares " + std::to_string(size) +
                                     " bytes and holds " + std::to_string(bytes.size() - h) +
                                     " (expected equal)");
      return {bytes.begin() + static_cast<std::ptrdiff_t>(h), bytes.end()};
    }
    if (compressor_ != "vtkZLibDataCompressor")
      text_.FailAt(compressor_line_, "compressor '" + Shown(compressor_, 40) +
                                         "' (expected vtkZLibDataCompressor or none)");
    return Inflate(array, bytes, check_declared);
  }

  // vtkZLibDataCompressor's layout: [blocks, block size, last block size, compressed size of each
  // block] in the header type, then the zlib blocks one after the other. `check_declared` is
  // given the total the header declares before any block is inflated.
  template <class CheckDeclared>
  std::vector<unsigned char> Inflate(const Array& array, const std::vector<unsigned char>& bytes,
                                     CheckDeclared check_declared) const {
    const std::size_t h = header_size_;
    const auto header = [&](std::size_t k) { return Unsigned(&bytes[k * h], h); };
    const auto fail = [&](const std::string& what) {
      text_.FailAt(array.line, "a compressed DataArray " + what);
    };
    if (bytes.size() < 3 * h) fail("without its block header (expected 3 numbers and sizes)");
    const std::uint64_t blocks = header(0), block_size = header(1), last_size = header(2);
    if (blocks > (bytes.size() - 3 * h) / h)
      fail("declares " + std::to_string(blocks) + " blocks, more than its header holds");
    std::size_t at = (3 + blocks) * h;
    std::uint64_t compressed = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      // Each size is at most the bytes left, so that the sum cannot wrap around.
      if (header(3 + b) > bytes.size()) fail("declares a block larger than the file");
      compressed += header(3 + b);
    }
    if (compressed != bytes.size() - at)
      fail("declares " + std::to_string(compressed) + " compressed bytes and holds " +
           std::to_string(bytes.size() - at) + " (expected equal)");
    // Every block holds block_size bytes but the last, which holds last_size (0: a full one).
    const auto block_out = [&](std::uint64_t b) {
      return (b + 1 == blocks && last_size != 0) ? last_size : block_size;
    };
    std::uint64_t declared = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const std::uint64_t in = header(3 + b), out = block_out(b);
      if (out > in * kMaxInflateRatio + kInflateSlack)
        fail("block claims " + std::to_string(out) + " bytes from " + std::to_string(in) +
             " (more than zlib can produce)");
      declared += out;  // at most 1032 × the file's size: no wrap-around
    }
    check_declared(declared);
    std::vector<unsigned char> values;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const std::uint64_t in = header(3 + b), out = block_out(b);
      const std::string problem = InflateBlock(bytes.data() + at, in, out, values);
      if (!problem.empty())
        fail("has a zlib block that does not inflate to its " + std::to_string(out) +
             " bytes (zlib: " + problem + ")");
      at += in;
    }
    return values;
  }

  // Appends the `out` bytes the zlib stream of `in` bytes at `data` inflates to, growing
  // `values` a chunk at a time as the bytes arrive; "" when it gives exactly `out` bytes, else
  // what went wrong.
  static std::string InflateBlock(const unsigned char* data, std::uint64_t in, std::uint64_t out,
                                  std::vector<unsigned char>& values) {
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK) return "cannot start";
    stream.next_in = const_cast<Bytef*>(data);  // zlib's API is not const-correct
    stream.avail_in = static_cast<uInt>(in);
    const std::size_t end = values.size() + out;
    int status = Z_OK;
    while (status == Z_OK && values.size() < end) {
      const std::size_t start = values.size();
      values.resize(start + std::min<std::size_t>(kInflateChunk, end - start));
      stream.next_out = values.data() + start;
      stream.avail_out = static_cast<uInt>(values.size() - start);
      status = inflate(&stream, Z_NO_FLUSH);
      values.resize(values.size() - stream.avail_out);
    }
    // One more call tells a stream that ends here from one with bytes beyond `out`.
    if (status == Z_OK) {
      unsigned char probe = 0;
      stream.next_out = &probe;
      stream.avail_out = 1;
      status = inflate(&stream, Z_FINISH);
      if (stream.avail_out == 0) status = Z_DATA_ERROR;  // longer than declared
    }
    inflateEnd(&stream);
    if (status != Z_STREAM_END)
      return status == Z_OK || status == Z_BUF_ERROR ? "short" : zError(status);
    if (values.size() != end) return "short";
    return "";
  }

  std::string_view bytes_;
  MeshText text_;
  MeshNotes& notes_;
  const MeshBudget& budget_;
  double values_left_;  ///< values the budget still allows the file's arrays to decode to
  Topology mesh_;
  bool little_endian_ = true;
  std::size_t header_size_ = 4;
  std::string compressor_;
  int compressor_line_ = 1;
};

}  // namespace

Topology ReadVtkXmlMesh(std::string_view bytes, const std::string& file, MeshNotes& notes,
                        const MeshBudget& budget) {
  return VtkXmlReader(bytes, file, notes, budget).Read();
}

}  // namespace fluxion::internal
