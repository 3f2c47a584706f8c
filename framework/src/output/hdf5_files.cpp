#include "output/hdf5_files.h"

#include <algorithm>

namespace fluxion::internal {

// Reads a whole dataset of doubles (or integers converted to doubles) into `values`; its shape
// into `dims`. False when the dataset is missing or unreadable.
bool ReadDoubles(hid_t file, const std::string& name, std::vector<double>& values,
                 std::vector<hsize_t>& dims) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return false;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) return false;
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 3) return false;
  dims.assign(static_cast<std::size_t>(rank), 0);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  hsize_t count = 1;
  for (const hsize_t extent : dims) count *= extent;
  values.resize(count);
  return count == 0 || H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                               values.data()) >= 0;
}

// The object ids, solver outputs and energies a file holds, from its /columns, in order.
std::vector<std::string> ReadColumnNames(hid_t file) {
  std::vector<std::string> names;
  if (H5Lexists(file, "columns", H5P_DEFAULT) <= 0) return names;
  Handle dataset(H5Dopen2(file, "columns", H5P_DEFAULT), H5Dclose);
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space.get(), &count, nullptr);
  const std::size_t width = H5Tget_size(type.get());
  if (H5Tis_variable_str(type.get()) > 0 || width == 0) return names;
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
