/*
 * The cell runner's text rules (lab/runner/): how the shell runner it
 * replaces split, cut and trimmed its words, kept byte for byte so the
 * console log and the channel read as they did.  Pure functions, unit
 * tested (tests/unit/test_runner_text.c).
 */
#ifndef PREEMPTLAB_RUNNER_TEXT_H
#define PREEMPTLAB_RUNNER_TEXT_H

#include <stddef.h>

/* Split LINE in place as `read -r a b ... last` does with the separators
 * SEPS (all IFS white space): leading and repeated separators collapse,
 * the last of N fields takes the rest less trailing separators; fields
 * not reached are "".  Returns how many fields were non-empty. */
int text_read_fields(char *line, const char *seps, char **field, int n);

/* Split S on white space into at most MAX words (an unquoted $VAR with
 * globbing off); S is changed in place. */
int text_words(char *s, char **word, int max);

/* Field N (1-based) of S cut at TABs, as `cut -fN` prints it: a string
 * without a TAB is its every field; a missing field is "". */
void text_cut_field(const char *s, int n, char *out, size_t size);

/* The model in parentheses of a debugfs sched/preempt line, "none
 * voluntary (full) lazy" -> "full", as sed 's/.*(\([a-z_]*\)).*\/\1/p'
 * finds it (the last such group); "" where none. */
void text_model_now(const char *line, char *out, size_t size);

/* Whether WORD is one of the blank-separated words of LINE, after
 * dropping LINE's parentheses when NOPAREN ("tr -d '()'"). */
int text_has_word(const char *line, const char *word, int noparen);

/* The last N lines of TEXT (LEN bytes), as tail -n N prints them. */
const char *text_tail(const char *text, size_t len, int n);

/* Remove trailing newlines, as $(...) does. */
void text_chomp(char *s);

/* Newlines to blanks, as tr '\n' ' ' does. */
void text_nl_to_blank(char *s);

/* Base64 of LEN bytes, in lines of 76 characters each ending in '\n' (as
 * base64(1) prints a file; nothing for no bytes).  OUT holds at least
 * text_base64_size(LEN) bytes; returns the characters written. */
size_t text_base64_size(size_t len);
size_t text_base64(const unsigned char *in, size_t len, char *out);

/* An exit status as the shell's $? gives it: the code, or 128 + signal. */
int text_shell_status(int wstatus);

/* A decimal integer as test -ge takes it: 0 and *v, or -1 when S is not one. */
int text_int(const char *s, long *v);

#endif
