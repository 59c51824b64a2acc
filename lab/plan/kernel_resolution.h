/*
 * A kernel resolution from the cache, checked before it is used again
 * (kernel_resolution.c): build/plan --kernel-resolution FILE prints it with
 * its paths re-rooted, or exits 1 saying why it may not be used.
 */
#ifndef PREEMPTLAB_KERNEL_RESOLUTION_H
#define PREEMPTLAB_KERNEL_RESOLUTION_H

int kernel_resolution(const char *file);

#endif
