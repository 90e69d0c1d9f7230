/*
 * Crashes libclang: the macros expand to a sum of 131072 terms, a
 * left-leaning tree of that depth, and a recursive walk over it overflows
 * the stack of libclang's parsing thread.  That is a SIGSEGV its crash
 * recovery does not catch, so it kills the process that parses.
 * (libclang 15 fell over at 32768 terms; 19 survives that and falls over
 * at this depth.)
 */
#define T0 +1
#define T1 T0 T0
#define T2 T1 T1
#define T3 T2 T2
#define T4 T3 T3
#define T5 T4 T4
#define T6 T5 T5
#define T7 T6 T6
#define T8 T7 T7
#define T9 T8 T8
#define T10 T9 T9
#define T11 T10 T10
#define T12 T11 T11
#define T13 T12 T12
#define T14 T13 T13
#define T15 T14 T14
#define T16 T15 T15
#define T17 T16 T16

__global__ void deep_sum(int *x) { x[0] = 0 T17; }
