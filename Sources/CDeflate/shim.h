// libdeflate (Debian: libdeflate-dev to build, libdeflate0 at run time), for the response
// cache's bodies: whole-buffer zlib streams, read by any zlib.
#include <libdeflate.h>
