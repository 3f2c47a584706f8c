// HDF5 helpers shared by the trajectory writer, its reader and the XDMF description: an owning
// identifier, and whole-dataset reads.
#pragma once

#include <hdf5.h>

#include <string>
#include <utility>
#include <vector>

namespace fluxion::internal {

// An HDF5 identifier closed by its own close function when the holder goes.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(close_, other.close_);
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Reset(); }
  void Reset() {
    if (id_ >= 0 && close_ != nullptr) close_(id_);
    id_ = -1;
  }
  /// Gives up ownership: the caller closes the identifier.
  hid_t Release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

/// Reads a whole dataset of doubles (integers converted) into `values`, its shape into `dims`.
/// False when the dataset is missing, unreadable, or of rank other than 1 to 3.
bool ReadDoubles(hid_t file, const std::string& name, std::vector<double>& values,
                 std::vector<hsize_t>& dims);

/// The file's /columns (fixed-length strings), in order; empty when missing.
std::vector<std::string> ReadColumnNames(hid_t file);

/// The dimensions of a dataset, or none when it is missing.
std::vector<hsize_t> Dimensions(hid_t file, const std::string& name);

}  // namespace fluxion::internal
