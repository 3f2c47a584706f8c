#include "output/hdf5_files.h"

#include <algorithm>
#include <cstdio>

namespace fluxion::internal {

namespace {

// The number of elements of a shape, as a double: a hostile shape's product must not wrap.
double Elements(const std::vector<hsize_t>& dims) {
  double count = 1;
  for (const hsize_t extent : dims) count *= static_cast<double>(extent);
  return count;
}

// Charges `dataset`'s declared size (`value_bytes` per element once read) and the bytes of one
// of its chunks, if chunked, stored as `stored_bytes` per element.
bool ChargeDataset(hid_t dataset, const std::string& name, double elements, double value_bytes,
                   double stored_bytes, ReadBudget& budget) {
  if (!budget.Charge(elements * value_bytes, "dataset /" + name)) return false;
  Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  if (!plist.valid() || H5Pget_layout(plist.get()) != H5D_CHUNKED) return true;
  std::vector<hsize_t> chunk(32, 0);
  const int rank = H5Pget_chunk(plist.get(), static_cast<int>(chunk.size()), chunk.data());
  if (rank < 0) return false;
  chunk.resize(static_cast<std::size_t>(rank));
  // The chunk is inflated to read it, then freed: it must fit in what is left, not charged.
  return budget.Fits(Elements(chunk) * stored_bytes, "a chunk of dataset /" + name);
}

std::string FormatMegabytes(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3g MB", bytes / 1e6);
  return text;
}

}  // namespace

bool ReadBudget::Charge(double bytes, const std::string& what) {
  if (!Fits(bytes, what)) return false;
  left_ -= bytes;
  return true;
}

bool ReadBudget::Fits(double bytes, const std::string& what) {
  if (bytes <= left_) return true;
  refusal_ = what + " declares about " + FormatMegabytes(bytes) +
             " of data, more than the memory budget leaves (expected at most " +
             FormatMegabytes(left_) + ": " + source_ + ")";
  return false;
}

// Reads a whole dataset of doubles (or integers converted to doubles) into `values`; its shape
// into `dims`. False when the dataset is missing or unreadable, or over the budget.
bool ReadDoubles(hid_t file, const std::string& name, std::vector<double>& values,
                 std::vector<hsize_t>& dims, ReadBudget* budget) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return false;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) return false;
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 3) return false;
  dims.assign(static_cast<std::size_t>(rank), 0);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  if (budget != nullptr) {
    Handle type(H5Dget_type(dataset.get()), H5Tclose);
    const double stored = type.valid() ? static_cast<double>(H5Tget_size(type.get())) : 8.0;
    if (!ChargeDataset(dataset.get(), name, Elements(dims), kBytesPerReadValue,
                       std::max(stored, 8.0), *budget))
      return false;
  }
  hsize_t count = 1;
  for (const hsize_t extent : dims) count *= extent;
  values.resize(count);
  return count == 0 || H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                               values.data()) >= 0;
}

// The object ids, solver outputs and energies a file holds, from its /columns, in order.
std::vector<std::string> ReadColumnNames(hid_t file, ReadBudget* budget) {
  std::vector<std::string> names;
  if (H5Lexists(file, "columns", H5P_DEFAULT) <= 0) return names;
  Handle dataset(H5Dopen2(file, "columns", H5P_DEFAULT), H5Dclose);
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  if (!dataset.valid() || !type.valid() || !space.valid() ||
      H5Sget_simple_extent_ndims(space.get()) != 1)
    return names;
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space.get(), &count, nullptr);
  const std::size_t width = H5Tget_size(type.get());
  if (H5Tis_variable_str(type.get()) > 0 || width == 0) return names;
  // Each name is read at its full width, then copied: twice its width (and the CSV header).
  if (budget != nullptr &&
      !ChargeDataset(dataset.get(), "columns", static_cast<double>(count),
                     3.0 * static_cast<double>(width), static_cast<double>(width), *budget))
    return names;
  std::vector<char> packed(count * width);
  if (count > 0 &&
      H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
    return names;
  for (hsize_t k = 0; k < count; ++k) {
    const char* begin = packed.data() + k * width;
    names.emplace_back(begin, std::find(begin, begin + width, '\0'));
  }
  return names;
}

// The dimensions of a dataset, or none.
std::vector<hsize_t> Dimensions(hid_t file, const std::string& name) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return {};
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

}  // namespace fluxion::internal
