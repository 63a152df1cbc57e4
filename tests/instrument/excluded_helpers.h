/* A header of tests/instrument/profile_hooks.c: its function is left out
   by -finstrument-functions-exclude-file-list=excluded_helpers. */
static inline int helper_in_header(int x) { return x * 10; }
