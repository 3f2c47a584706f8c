// A shared library that is not a Fluxion plugin (no descriptor symbol) but whose static
// constructor has a visible effect: it creates the file named by FLUXION_TEST_MARKER. The plugin
// loader must refuse it from its symbol table without loading it, so the file must never appear
// (tests/tools/untrusted_input_test.cpp).
#include <cstdio>
#include <cstdlib>

namespace {

struct LeavesAMark {
  LeavesAMark() {
    const char* marker = std::getenv("FLUXION_TEST_MARKER");
    if (marker == nullptr) return;
    if (std::FILE* file = std::fopen(marker, "w")) std::fclose(file);
  }
};

const LeavesAMark kMark;

}  // namespace
