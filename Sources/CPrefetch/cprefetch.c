// The hint is a static inline function in include/cprefetch.h, which Swift inlines; SwiftPM
// builds a C target from at least one source file.
#include "cprefetch.h"
