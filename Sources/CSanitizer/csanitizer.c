// The annotations are inline functions in the header; this file gives the target a source.
#include "csanitizer.h"
