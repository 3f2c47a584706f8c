#include "animation.h"

#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace fluxion::runner {

namespace {

constexpr int kCube = 216;  // palette 0 … 215: r·36 + g·6 + b, each of 0, 51, …, 255
constexpr int kGreys = 40;  // palette 216 … 255: greys from black to white

ColorMapObject* Palette() {
  ColorMapObject* map = GifMakeMapObject(256, nullptr);
  if (map == nullptr) return nullptr;
  for (int i = 0; i < kCube; ++i) {
    map->Colors[i].Red = static_cast<GifByteType>(51 * (i / 36));
    map->Colors[i].Green = static_cast<GifByteType>(51 * ((i / 6) % 6));
    map->Colors[i].Blue = static_cast<GifByteType>(51 * (i % 6));
  }
  for (int i = 0; i < kGreys; ++i) {
    const auto level = static_cast<GifByteType>((255 * i + (kGreys - 1) / 2) / (kGreys - 1));
    map->Colors[kCube + i] = {level, level, level};
  }
  return map;
}

// The palette entry of an RGB colour: a neutral colour (r = g = b) takes the nearest grey, any
// other the nearest corner of the colour cube.
GifPixelType Index(int r, int g, int b) {
  if (r == g && g == b) return static_cast<GifPixelType>(kCube + (r * (kGreys - 1) + 127) / 255);
  const auto level = [](int c) { return (c + 25) / 51; };
  return static_cast<GifPixelType>(36 * level(r) + 6 * level(g) + level(b));
}

}  // namespace

GifAnimation::~GifAnimation() {
  if (gif_ != nullptr) {
    int ignored = 0;
    EGifCloseFile(gif_, &ignored);
  }
}

bool GifAnimation::Open(const OutputClaim& claim, int width, int height, int delay_cs,
                        std::string& why) {
  path_ = claim.name;
  const std::string& path = claim.name;
  width_ = width;
  height_ = height;
  delay_cs_ = delay_cs;
  // Opened by the output policy rather than by EGifOpenFileName, which follows links, writes
  // through an existing file and creates files readable by their owner only.
  const int fd = OpenClaimedOutputDescriptor(claim, &why);
  if (fd < 0) return false;
  int error = 0;
  gif_ = EGifOpenFileHandle(fd, &error);
  if (gif_ == nullptr) {
    ::close(fd);
    why = path + ": cannot write the animation (" + GifErrorString(error) + ")";
    return false;
  }
  EGifSetGifVersion(gif_, true);
  ColorMapObject* palette = Palette();
  const bool ok =
      palette != nullptr && EGifPutScreenDesc(gif_, width, height, 8, 0, palette) == GIF_OK;
  GifFreeMapObject(palette);
  // Netscape's application extension: loop for ever.
  static const unsigned char kNetscape[] = "NETSCAPE2.0";
  static const unsigned char kLoopForever[] = {1, 0, 0};
  if (!ok || EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
      EGifPutExtensionBlock(gif_, 11, kNetscape) != GIF_OK ||
      EGifPutExtensionBlock(gif_, 3, kLoopForever) != GIF_OK ||
      EGifPutExtensionTrailer(gif_) != GIF_OK) {
    why = path + ": cannot write the animation (" + GifErrorString(gif_->Error) + ")";
    return false;
  }
  return true;
}

void GifAnimation::Add(const Simulation& simulation) {
  frames_.push_back(TakeSnapshot(simulation));
}

bool GifAnimation::Close(const Simulation& simulation, View view, const std::string& title,
                         std::string& why) {
  if (gif_ == nullptr) return true;
  // One camera and one strain scale for the whole run: the frames' union and largest strain.
  const SceneSketch sketch(simulation);
  Camera camera = CameraFor(view, sketch.gravity(), width_, height_);
  ScreenBounds bounds;
  double strain_scale = 1e-6;
  for (const Snapshot& frame : frames_) {
    AddToBounds(sketch, camera, frame, bounds);
    strain_scale = std::max(strain_scale, LargestStrain(sketch, frame));
  }
  FitToBounds(camera, bounds, 0.1);
  bool ok = true;
  for (const Snapshot& frame : frames_)
    if (ok) ok = WriteFrame(DrawSnapshot(sketch, frame, camera, strain_scale, title), why);
  frames_.clear();
  int error = 0;
  const bool closed = EGifCloseFile(gif_, &error) == GIF_OK;
  gif_ = nullptr;
  if (ok && !closed) why = path_ + ": cannot finish the animation (" + GifErrorString(error) + ")";
  return ok && closed;
}

bool GifAnimation::WriteFrame(const Surface& surface, std::string& why) {
  // The frame's delay (graphics control extension: no transparency, delay in 1/100 s).
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSAL_UNSPECIFIED;
  control.DelayTime = delay_cs_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  EGifGCBToExtension(&control, extension);
  bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_OK &&
            EGifPutImageDesc(gif_, 0, 0, width_, height_, false, nullptr) == GIF_OK;
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  std::vector<GifPixelType> line(static_cast<std::size_t>(width_));
  for (int y = 0; ok && y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      std::uint32_t pixel = 0;  // Cairo's native-endian 0x00RRGGBB
      std::memcpy(&pixel, data + y * stride + 4 * x, 4);
      line[static_cast<std::size_t>(x)] =
          Index(static_cast<int>((pixel >> 16) & 0xff), static_cast<int>((pixel >> 8) & 0xff),
                static_cast<int>(pixel & 0xff));
    }
    ok = EGifPutLine(gif_, line.data(), width_) == GIF_OK;
  }
  if (!ok) why = path_ + ": cannot write the animation (" + GifErrorString(gif_->Error) + ")";
  return ok;
}

}  // namespace fluxion::runner
