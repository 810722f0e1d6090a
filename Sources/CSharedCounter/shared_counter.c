// The functions are static inline in the header; this file gives SwiftPM a C target to build.
#include "shared_counter.h"
