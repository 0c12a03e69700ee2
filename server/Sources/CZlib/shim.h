// zlib, the system's (Debian: zlib1g-dev, which Swift's own installation requires).
#include <zlib.h>
