// The annotations are inline functions in the header; SwiftPM needs one source file to build the module.
#include "_RippleTSan.h"
