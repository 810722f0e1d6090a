// zlib (Debian: zlib1g-dev to build, zlib1g at run time), for the response cache's bodies.
#include <zlib.h>
