/*
 * What a cache line written by both cores costs on this machine (docs/benchmarks.md, ninth pass).
 *
 * Two threads each run the same loop: an atomic increment and decrement (a Swift retain and release) on each of
 * 20 cache lines, then a little private work. With "private" every thread has its own 20 lines; with "shared" both
 * threads write the same 20, so a line moves from one core to the other on nearly every touch, as an object's
 * reference count does when both of the server's worker threads retain it for every request. The difference per
 * iteration, divided by 20, is the price of one such touch.
 *
 * Build and run: gcc -O2 -pthread -o shared_lines shared_lines.c && ./shared_lines
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define LINES 20
#define ITERATIONS 2000000L

struct line {
    _Atomic long count;
    char padding[64 - sizeof(long)];
};

static struct line shared[LINES];
static struct line own[2][LINES];
static int sharing;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *run(void *argument) {
    long thread = (long)argument;
    struct line *lines = sharing ? shared : own[thread];
    volatile long sink = 0;
    for (long i = 0; i < ITERATIONS; i++) {
        for (int k = 0; k < LINES; k++) {
            atomic_fetch_add_explicit(&lines[k].count, 1, memory_order_relaxed);
            atomic_fetch_sub_explicit(&lines[k].count, 1, memory_order_relaxed);
        }
        for (int w = 0; w < 200; w++) sink += w * i;
    }
    return NULL;
}

int main(void) {
    double per_iteration[2];
    for (sharing = 0; sharing < 2; sharing++) {
        pthread_t threads[2];
        double start = now();
        for (long t = 0; t < 2; t++) pthread_create(&threads[t], NULL, run, (void *)t);
        for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
        per_iteration[sharing] = (now() - start) * 1e9 / ITERATIONS;
        printf("%s lines: %.1f ns per iteration\n", sharing ? "shared" : "own", per_iteration[sharing]);
    }
    printf("one touch of a line the other core wrote: %.1f ns\n", (per_iteration[1] - per_iteration[0]) / LINES);
    return 0;
}
