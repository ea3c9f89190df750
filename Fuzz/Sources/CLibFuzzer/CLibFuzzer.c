// Declarations only (include/CLibFuzzer.h); SwiftPM needs one source file in a C target.
#include "CLibFuzzer.h"
