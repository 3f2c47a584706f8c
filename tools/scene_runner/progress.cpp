#include "progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace fluxion::runner {

namespace {

// "1:05" or "2:03:07".
std::string Duration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  char text[40];
  if (total >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  return text;
}

// Columns of the terminal on `stream`, 80 when unknown.
int TerminalColumns(std::FILE* stream) {
  winsize size{};
  if (::ioctl(::fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

std::string FormatProgress(long steps, long total, double sim_time, double elapsed, int width) {
  const double fraction =
      total > 0 ? std::clamp(static_cast<double>(steps) / static_cast<double>(total), 0.0, 1.0)
                : 1.0;
  char text[200];
  // Speed: whole steps per second from 100 on, three significant digits below.
  std::string speed = "-";
  if (elapsed > 0 && steps > 0) {
    const double rate = static_cast<double>(steps) / elapsed;
    std::snprintf(text, sizeof text, rate >= 100 ? "%.0f" : "%.3g", rate);
    speed = text;
  }
  // Time left at the mean speed so far; the elapsed time once done.
  std::string when = "ETA -";
  if (steps >= total)
    when = "in " + Duration(elapsed);
  else if (elapsed > 0 && steps > 0)
    when = "ETA " +
           Duration(elapsed / static_cast<double>(steps) * static_cast<double>(total - steps));
  std::snprintf(text, sizeof text, "%3d%%  step %ld/%ld  t = %g s  %s steps/s  %s",
                static_cast<int>(std::floor(fraction * 100)), steps, total, sim_time, speed.c_str(),
                when.c_str());
  if (width <= 0) return std::string("progress: ") + text;
  const int filled = static_cast<int>(std::floor(fraction * width));
  return "[" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(width - filled), '.') + "] " + text;
}

ProgressReporter::ProgressReporter(ProgressStyle style, long total, std::FILE* stream,
                                   std::chrono::milliseconds period)
    : style_(style), total_(total), stream_(stream), start_(std::chrono::steady_clock::now()) {
  if (style_ == ProgressStyle::kOff) return;
  ticker_ = std::thread([this, period] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, period, [this] { return stopping_; }))
      due_.store(true, std::memory_order_relaxed);
  });
}

ProgressReporter::~ProgressReporter() {
  if (!ticker_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  ticker_.join();
}

double ProgressReporter::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressReporter::Report(long steps, double sim_time) {
  due_.store(false, std::memory_order_relaxed);
  if (style_ == ProgressStyle::kLines) {
    std::fprintf(stream_, "%s\n", FormatProgress(steps, total_, sim_time, Elapsed(), 0).c_str());
  } else {
    // The bar takes what the text leaves of the line, up to 30 columns; the line never wraps,
    // so "\r" always returns to its start.
    const int columns = TerminalColumns(stream_);
    const std::string bare = FormatProgress(steps, total_, sim_time, Elapsed(), 1);
    const int width = std::clamp(columns - 1 - static_cast<int>(bare.size()), 0, 30);
    std::string line = FormatProgress(steps, total_, sim_time, Elapsed(), std::max(width, 1));
    if (static_cast<int>(line.size()) > columns - 1)
      line.resize(static_cast<std::size_t>(std::max(columns - 1, 0)));
    std::fprintf(stream_, "\r%s\x1b[K", line.c_str());
    drawn_ = true;
  }
  std::fflush(stream_);
}

void ProgressReporter::Finish(long steps, double sim_time) {
  if (style_ == ProgressStyle::kLines || (style_ == ProgressStyle::kTerminal && drawn_)) {
    Report(steps, sim_time);
    if (style_ == ProgressStyle::kTerminal) std::fputc('\n', stream_);
    std::fflush(stream_);
  }
}

void ProgressReporter::Clear() {
  if (style_ != ProgressStyle::kTerminal || !drawn_) return;
  std::fputs("\r\x1b[K", stream_);
  std::fflush(stream_);
  drawn_ = false;
}

}  // namespace fluxion::runner
