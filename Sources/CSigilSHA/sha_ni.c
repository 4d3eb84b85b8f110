#include "CSigilSHA.h"
int csigil_sha_placeholder(void) { return 0; }
