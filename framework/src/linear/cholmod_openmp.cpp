#include "linear/cholmod_openmp.h"

#include <cholmod.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>

// Debian's CHOLMOD (SuiteSparse 5.12) wraps the scatter and clear loops of its supernodal
// factorisation in `#pragma omp parallel for num_threads(4) if (…)` regions, several per
// supernode: ≈ 25 000 regions in one factorisation of the 128² cloth's matrix. A region whose
// `if` is false, or one made inactive, still goes through the OpenMP runtime: libgomp allocates a
// one-thread team (memalign, and malloc_consolidate whenever the free lists hold small blocks),
// waits on the team's final barrier, whose last arriving thread always makes a futex wake system
// call, and frees the team. Profiled on the 128² cloth (perf, 2026-11-27): about a sixth of the
// factorisation's time went there, in the kernel, malloc and libgomp, on each thread.
//
// The loops need no team: each writes its own entries, and on one thread a region is its body
// called once. So Fluxion points libcholmod's three imports from the OpenMP runtime at the
// functions below, which call the body directly on a thread inside a SerialCholmodRegions scope
// (omp_get_num_threads() = 1 and omp_get_thread_num() = 0 inside it, so a static schedule gives
// that thread every iteration) and forward to libgomp everywhere else: another user of CHOLMOD
// in the process keeps its teams. The results are those of the inactive regions Fluxion used
// before, bit for bit: the same loops, run by one thread.
//
// The redirection rewrites three entries of libcholmod's global offset table, the slots its calls
// to those functions jump through (ELF's dynamic relocations R_*_JUMP_SLOT, or R_*_GLOB_DAT when
// it is built with -fno-plt; "System V ABI, AMD64 supplement", §5.2). It is done once, before
// Fluxion's first CHOLMOD call, and only when everything checks: x86-64 or AArch64, CHOLMOD in a
// shared library of its own (not linked into the object holding this code, whose own OpenMP
// calls must reach libgomp), libgomp loaded, every OpenMP function libcholmod imports one of the
// three. Otherwise nothing is rewritten and SerialCholmodRegions falls back to making the regions
// inactive through omp_set_max_active_levels, as before (slower, same results).

namespace fluxion::internal {

namespace {

using RegionBody = void (*)(void*);
using ParallelFunction = void (*)(RegionBody, void*, unsigned, unsigned);
using CountFunction = int (*)();

struct OpenMpRuntime {
  ParallelFunction parallel = nullptr;
  CountFunction num_threads = nullptr;
  CountFunction thread_num = nullptr;
  void (*set_max_active_levels)(int) = nullptr;
  int (*get_max_active_levels)() = nullptr;
};

// The OpenMP runtime CHOLMOD brought into the process (RTLD_NOLOAD: never loads one). Fluxion's
// own build may have OpenMP or not (clang builds of the fuzz targets have none).
const OpenMpRuntime& Runtime() {
  static const OpenMpRuntime runtime = [] {
    OpenMpRuntime found;
    void* library = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (library == nullptr) return found;
    // dlsym returns void*; POSIX guarantees it converts to a function pointer.
    found.parallel = reinterpret_cast<ParallelFunction>(dlsym(library, "GOMP_parallel"));
    found.num_threads = reinterpret_cast<CountFunction>(dlsym(library, "omp_get_num_threads"));
    found.thread_num = reinterpret_cast<CountFunction>(dlsym(library, "omp_get_thread_num"));
    found.set_max_active_levels =
        reinterpret_cast<void (*)(int)>(dlsym(library, "omp_set_max_active_levels"));
    found.get_max_active_levels =
        reinterpret_cast<int (*)()>(dlsym(library, "omp_get_max_active_levels"));
    if (found.set_max_active_levels == nullptr || found.get_max_active_levels == nullptr)
      found.set_max_active_levels = nullptr, found.get_max_active_levels = nullptr;
    dlclose(library);  // CHOLMOD keeps it loaded: the functions stay valid
    return found;
  }();
  return runtime;
}

thread_local bool regions_inline = false;  // this thread is in a SerialCholmodRegions scope
thread_local int inline_depth = 0;         // regions running inline on this thread
thread_local long inline_count = 0;        // regions run inline on this thread so far

void InlineParallel(RegionBody body, void* data, unsigned threads, unsigned flags) {
  if (!regions_inline) {
    Runtime().parallel(body, data, threads, flags);
    return;
  }
  ++inline_depth;
  ++inline_count;
  body(data);
  --inline_depth;
}

int InlineNumThreads() { return inline_depth > 0 ? 1 : Runtime().num_threads(); }
int InlineThreadNum() { return inline_depth > 0 ? 0 : Runtime().thread_num(); }

// The 64-bit relocation info: symbol index in the high 32 bits, type in the low ones (ELF64_R_SYM,
// ELF64_R_TYPE).
constexpr auto RelocationSymbol(std::uint64_t info) { return info >> 32; }
constexpr auto RelocationType(std::uint64_t info) { return static_cast<unsigned>(info); }

#if defined(__x86_64__)
constexpr unsigned kJumpSlot = R_X86_64_JUMP_SLOT;
constexpr unsigned kGlobalData = R_X86_64_GLOB_DAT;
#define FLUXION_CAN_REDIRECT_CHOLMOD 1
#elif defined(__aarch64__)
constexpr unsigned kJumpSlot = R_AARCH64_JUMP_SLOT;
constexpr unsigned kGlobalData = R_AARCH64_GLOB_DAT;
#define FLUXION_CAN_REDIRECT_CHOLMOD 1
#endif

#ifdef FLUXION_CAN_REDIRECT_CHOLMOD

struct Redirection {
  const char* name;
  void* function;
};
const Redirection kRedirections[] = {
    {"GOMP_parallel", reinterpret_cast<void*>(&InlineParallel)},
    {"omp_get_num_threads", reinterpret_cast<void*>(&InlineNumThreads)},
    {"omp_get_thread_num", reinterpret_cast<void*>(&InlineThreadNum)},
};
constexpr int kMaxSlots = 16;

// One search of the loaded objects for CHOLMOD's: the slots to rewrite, or why not.
struct Search {
  ElfW(Addr) base = 0;  // load address of the object that holds CHOLMOD
  bool found = false;
  bool usable = true;  // false: an import we do not handle, or a table we cannot read
  void** slots[kMaxSlots] = {};
  void* targets[kMaxSlots] = {};
  int count = 0;
  ElfW(Addr) relro_begin = 0, relro_end = 0;
};

bool IsOpenMpName(const char* name) {
  return std::strncmp(name, "GOMP_", 5) == 0 || std::strncmp(name, "omp_", 4) == 0 ||
         std::strncmp(name, "GOACC_", 6) == 0;
}

// Reads the relocations of one table (Elf*_Rela entries) and records the slots of the imports
// to redirect; any other OpenMP import makes the search unusable.
void ScanRelocations(Search& search, ElfW(Addr) table, size_t bytes, const ElfW(Sym) * symbols,
                     const char* names) {
  const auto* relocation = reinterpret_cast<const ElfW(Rela)*>(table);
  for (size_t k = 0; k < bytes / sizeof(ElfW(Rela)); ++k, ++relocation) {
    const auto type = static_cast<unsigned>(RelocationType(relocation->r_info));
    const auto symbol = RelocationSymbol(relocation->r_info);
    if ((type != kJumpSlot && type != kGlobalData) || symbol == 0) continue;
    const char* name = names + symbols[symbol].st_name;
    if (!IsOpenMpName(name)) continue;
    void* target = nullptr;
    for (const Redirection& redirection : kRedirections)
      if (std::strcmp(name, redirection.name) == 0) target = redirection.function;
    if (target == nullptr || search.count == kMaxSlots) {
      search.usable = false;
      return;
    }
    search.slots[search.count] = reinterpret_cast<void**>(search.base + relocation->r_offset);
    search.targets[search.count++] = target;
  }
}

int ScanObject(dl_phdr_info* info, size_t /*size*/, void* data) {
  Search& search = *static_cast<Search*>(data);
  if (info->dlpi_addr != search.base) return 0;
  search.found = true;
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + header.p_vaddr);
    if (header.p_type == PT_GNU_RELRO) {
      search.relro_begin = info->dlpi_addr + header.p_vaddr;
      search.relro_end = search.relro_begin + header.p_memsz;
    }
  }
  if (dynamic == nullptr) {
    search.usable = false;
    return 1;
  }
  // glibc relocates these addresses in the loaded dynamic section on most targets, not on all:
  // an address below the load address is still an offset.
  const auto address = [&](ElfW(Addr) value) {
    return value < info->dlpi_addr ? value + info->dlpi_addr : value;
  };
  ElfW(Addr) plt_table = 0, table = 0, symbols = 0, names = 0;
  size_t plt_bytes = 0, bytes = 0;
  ElfW(Sxword) plt_kind = 0;
  for (const ElfW(Dyn)* entry = dynamic; entry->d_tag != DT_NULL; ++entry) switch (entry->d_tag) {
      case DT_JMPREL:
        plt_table = address(entry->d_un.d_ptr);
        break;
      case DT_PLTRELSZ:
        plt_bytes = entry->d_un.d_val;
        break;
      case DT_PLTREL:
        plt_kind = static_cast<ElfW(Sxword)>(entry->d_un.d_val);
        break;
      case DT_RELA:
        table = address(entry->d_un.d_ptr);
        break;
      case DT_RELASZ:
        bytes = entry->d_un.d_val;
        break;
      case DT_SYMTAB:
        symbols = address(entry->d_un.d_ptr);
        break;
      case DT_STRTAB:
        names = address(entry->d_un.d_ptr);
        break;
      default:
        break;
    }
  if (symbols == 0 || names == 0 || (plt_table != 0 && plt_kind != DT_RELA)) {
    search.usable = false;
    return 1;
  }
  const auto* symbol_table = reinterpret_cast<const ElfW(Sym)*>(symbols);
  const auto* name_table = reinterpret_cast<const char*>(names);
  if (plt_table != 0) ScanRelocations(search, plt_table, plt_bytes, symbol_table, name_table);
  if (table != 0) ScanRelocations(search, table, bytes, symbol_table, name_table);
  return 1;
}

// Writes one slot, lifting RELRO's write protection around it when the slot is under it (a
// library linked with -z now).
bool WriteSlot(const Search& search, void** slot, void* target) {
  const auto at = reinterpret_cast<ElfW(Addr)>(slot);
  const bool protected_slot = at >= search.relro_begin && at < search.relro_end;
  const auto page_size = static_cast<ElfW(Addr)>(sysconf(_SC_PAGESIZE));
  void* page = reinterpret_cast<void*>(at & ~(page_size - 1));
  if (protected_slot && mprotect(page, page_size, PROT_READ | PROT_WRITE) != 0) return false;
  __atomic_store_n(slot, target, __ATOMIC_RELEASE);
  if (protected_slot) mprotect(page, page_size, PROT_READ);
  return true;
}

bool Redirect() {
  const OpenMpRuntime& runtime = Runtime();
  if (runtime.parallel == nullptr || runtime.num_threads == nullptr ||
      runtime.thread_num == nullptr)
    return false;
  Dl_info cholmod{}, self{};
  if (dladdr(reinterpret_cast<void*>(&cholmod_start), &cholmod) == 0 ||
      dladdr(reinterpret_cast<void*>(&InlineParallel), &self) == 0 ||
      cholmod.dli_fbase == self.dli_fbase)
    return false;
  Search search;
  search.base = reinterpret_cast<ElfW(Addr)>(cholmod.dli_fbase);
  dl_iterate_phdr(ScanObject, &search);
  if (!search.found || !search.usable || search.count == 0) return false;
  // The counting functions first: they forward while no region runs inline, so a failure
  // before GOMP_parallel's slot is written leaves CHOLMOD as it was.
  const void* parallel = reinterpret_cast<void*>(&InlineParallel);
  for (const bool regions : {false, true})
    for (int k = 0; k < search.count; ++k)
      if ((search.targets[k] == parallel) == regions &&
          !WriteSlot(search, search.slots[k], search.targets[k]))
        return false;
  return true;
}

#else
bool Redirect() { return false; }
#endif

}  // namespace

bool InlineCholmodRegions() {
  static const bool redirected = Redirect();
  return redirected;
}

long InlineRegionsRun() { return inline_count; }

SerialCholmodRegions::SerialCholmodRegions(int fallback_active_levels) {
  if (InlineCholmodRegions()) {
    inline_ = true;
    saved_inline_ = regions_inline;
    regions_inline = true;
    return;
  }
  const OpenMpRuntime& runtime = Runtime();
  if (fallback_active_levels < 0 || runtime.set_max_active_levels == nullptr) return;
  saved_levels_ = runtime.get_max_active_levels();
  runtime.set_max_active_levels(fallback_active_levels);
}

SerialCholmodRegions::~SerialCholmodRegions() {
  if (inline_)
    regions_inline = saved_inline_;
  else if (saved_levels_ >= 0)
    Runtime().set_max_active_levels(saved_levels_);
}

}  // namespace fluxion::internal
