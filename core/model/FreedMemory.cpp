#include "model/FreedMemory.h"

#include <QtGlobal>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(Q_OS_UNIX)
#include <dlfcn.h>
#endif

#include <cstddef>

namespace cnready {

void releaseFreedMemory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
#if defined(Q_OS_UNIX)
    using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);
    static const auto mallctl = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
    if (mallctl)
        mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0); // 4096: MALLCTL_ARENAS_ALL
#endif
}

} // namespace cnready
