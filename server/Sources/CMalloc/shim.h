// glibc's allocator statistics and trimming (<malloc.h>: mallinfo2, malloc_trim), which Swift's Glibc
// module doesn't export. Nothing elsewhere.
#if defined(__linux__)
#include <malloc.h>

// `mallinfo2` names both the function and its struct: in Swift, `mallinfo2()` is the struct's
// zero initializer. This calls the function.
static inline struct mallinfo2 entitle_mallinfo2(void) { return mallinfo2(); }
#endif
