/*
 * make flamegraph DIFF=A,B: a run's profiles named by cell.  A and B are
 * KERNEL/MODEL[/PAGES[/LOCK[/cCLIENTS]]], matched against the profile
 * names <tool>-<kernel>-<model>-<pages>-<lock>-c<clients>-r<n> in
 * RUNDIR/perf; every profile a name matches (repetitions, client counts)
 * is summed into its side.
 */
#ifndef PREEMPTLAB_FLAME_CELLS_H
#define PREEMPTLAB_FLAME_CELLS_H

#include "flame.h"

/*
 * Writes RUNDIR/flame-diff-A-vs-B.svg (slashes as underscores) and prints
 * its path; 0, or 1 with a message naming the profiles there.
 */
int flame_diff_cells(const char *rundir, const char *spec, const struct flame_opts *o);

#endif
