#include "stall.h"

double closed_k(double m, double p_f, double q, double t_us)
{
	return m * p_f * q * t_us * 1e-6;
}
