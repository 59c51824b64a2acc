#include "stall.h"

double cf_k(double m, double p_f, double q, double t_us)
{
	return m * p_f * q * t_us * 1e-6;
}
