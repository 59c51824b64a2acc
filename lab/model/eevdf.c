/* EEVDF's default slice (eevdf.h). */
#include "eevdf.h"

double eevdf_slice_ns(int cpus)
{
	int n = cpus < 8 ? cpus : 8;
	int log2n = 0;
	while (n > 1) {
		n >>= 1;
		log2n++;
	}
	return EEVDF_BASE_SLICE_NS * (1 + log2n);
}
