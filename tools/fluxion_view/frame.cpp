#include "frame.h"

#include <bit>
#include <cstring>

namespace fluxion::view {

static_assert(std::endian::native == std::endian::little,
              "the viewer's frames are little-endian, as the page's typed arrays read them");

namespace {

template <class T>
void Put(std::vector<unsigned char>& frame, std::size_t& at, const T& value) {
  std::memcpy(frame.data() + at, &value, sizeof value);
  at += sizeof value;
}

}  // namespace

void EncodeFrame(const Simulation& simulation, std::vector<unsigned char>& frame,
                 FramePrecision precision) {
  const bool single = precision == FramePrecision::kFloat32;
  const std::size_t scalar = single ? sizeof(float) : sizeof(double);
  const auto& objects = simulation.objects();
  std::size_t pushing = 0;
  for (const Contact& contact : simulation.contacts()) pushing += contact.penetration > 0.0;
  std::size_t bytes = kFrameHeaderBytes;
  for (const ObjectModel& object : objects)
    bytes += 8 + scalar * static_cast<std::size_t>(object.num_dofs());
  if (pushing > 0) bytes += 8 + scalar * 6 * pushing;
  frame.resize(bytes);

  std::size_t at = 0;
  std::memcpy(frame.data(), single ? "FXF1" : "FXV1", 4);
  at = 4;
  Put(frame, at, static_cast<std::uint32_t>(objects.size() + (pushing > 0 ? 1 : 0)));
  Put(frame, at, static_cast<std::int64_t>(simulation.step_count()));
  Put(frame, at, simulation.time());
  Put(frame, at, simulation.KineticEnergy());
  Put(frame, at, simulation.PotentialEnergy());
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const auto x = simulation.position(static_cast<int>(k));
    Put(frame, at, static_cast<std::uint32_t>(k));
    Put(frame, at, static_cast<std::uint32_t>(x.size()));
    if (single) {
      for (const double c : x) Put(frame, at, static_cast<float>(c));
    } else {
      std::memcpy(frame.data() + at, x.data(), sizeof(double) * static_cast<std::size_t>(x.size()));
      at += sizeof(double) * static_cast<std::size_t>(x.size());
    }
  }
  if (pushing > 0) {
    Put(frame, at, kContactBlock);
    Put(frame, at, static_cast<std::uint32_t>(6 * pushing));
    for (const Contact& contact : simulation.contacts()) {
      if (contact.penetration <= 0.0) continue;
      for (const auto& point : contact.point)
        for (const double c : point) {
          if (single)
            Put(frame, at, static_cast<float>(c));
          else
            Put(frame, at, c);
        }
    }
  }
}

}  // namespace fluxion::view
