#include "CSigilBignum.h"
int csigil_bignum_mulx_supported(void) { return 0; }
