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

/// What reading a file that is not ours (a --compare reference) may still take [bytes]: the size
/// each dataset declares, and the size of one of its chunks (HDF5 inflates a whole chunk to read
/// any part of it), are charged before it is read, so that a small file cannot claim gigabytes.
class ReadBudget {
 public:
  ReadBudget(double bytes, std::string source) : left_(bytes), source_(std::move(source)) {}
  /// Charges `bytes` for `what` ("dataset /time"); false, with refusal(), when more than is left.
  bool Charge(double bytes, const std::string& what);
  /// True if `bytes` (memory taken and freed again) fit in what is left; else as Charge.
  bool Fits(double bytes, const std::string& what);
  /// Why the last Charge failed ("" if none did): "dataset /x declares … (expected at most …)".
  const std::string& refusal() const { return refusal_; }

 private:
  double left_;
  std::string source_;
  std::string refusal_;
};

/// Bytes a value of a reference costs once read: the double, and its text in the CSV it becomes
/// (shortest round-trip form: at most 24 characters and a comma).
inline constexpr double kBytesPerReadValue = 8 + 25;

/// Reads a whole dataset of doubles (integers converted) into `values`, its shape into `dims`.
/// False when the dataset is missing, unreadable, of rank other than 1 to 3, or (with a
/// `budget`) larger than it allows: then `budget->refusal()` says so, before anything is read.
bool ReadDoubles(hid_t file, const std::string& name, std::vector<double>& values,
                 std::vector<hsize_t>& dims, ReadBudget* budget = nullptr);

/// The file's /columns (fixed-length strings), in order; empty when missing, unreadable, or
/// (with a `budget`) larger than it allows.
std::vector<std::string> ReadColumnNames(hid_t file, ReadBudget* budget = nullptr);

/// The dimensions of a dataset, or none when it is missing.
std::vector<hsize_t> Dimensions(hid_t file, const std::string& name);

}  // namespace fluxion::internal
