/*
 * PostgreSQL refuses to run as root, and a busybox guest has neither
 * runuser nor a setpriv that can change uids, so pgsample carries the
 * one thing the scripts need: drop to a user and exec a program, keeping
 * the environment and the exit status.
 */
#ifndef PREEMPTLAB_PGSAMPLE_RUNAS_H
#define PREEMPTLAB_PGSAMPLE_RUNAS_H

/* pgsample run-as USER PROGRAM [ARGS...]; returns only on failure. */
int runas_main(int argc, char **argv);

#endif
