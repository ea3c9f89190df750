/*
 * What one read of a random cache line costs on this machine, by the size of the table it is in
 * (docs/benchmarks.md, "Matcher": the 100k rows against the GitHub set).
 *
 * A lookup in a large route table reads a few lines at places no earlier lookup has warmed: a literal edge's slot,
 * the node it leads to, the matched entry. Each read depends on the one before, so their latencies add up. This
 * chases pointers through a table of SIZE bytes, one pointer per 64-byte line, in a random cyclic order, so every
 * read depends on the last and lands on a line (and, past a few MiB, a page) the previous reads did not touch. It
 * prints ns per read for tables from 16 KiB to 256 MiB, with the kernel's 4 KiB pages and with transparent huge
 * pages asked for (madvise MADV_HUGEPAGE, which this kernel honours in its "madvise" mode), so that the share of
 * the address translation shows.
 *
 * Build and run: gcc -O2 -o random_lines random_lines.c && ./random_lines
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define READS 20000000L

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t state = 42;
static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ns per dependent read through a random cycle over every line of a table of `size` bytes. */
static double chase(size_t size, int huge) {
    size_t lines = size / LINE;
    char *table = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) return -1;
    if (huge) madvise(table, size, MADV_HUGEPAGE);
    size_t *order = malloc(lines * sizeof(size_t));
    for (size_t i = 0; i < lines; i++) order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = next_random() % (i + 1);
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++) *(char **)(table + order[i] * LINE) = table + order[(i + 1) % lines] * LINE;
    free(order);
    char *p = table;
    for (size_t i = 0; i < lines; i++) p = *(char **)p; /* warm: every line visited once */
    double start = now();
    for (long i = 0; i < READS; i++) p = *(char **)p;
    double ns = (now() - start) / READS * 1e9;
    if (p == NULL) puts("");
    munmap(table, size);
    return ns;
}

int main(void) {
    printf("table\t4 KiB pages ns/read\thuge pages ns/read\n");
    for (size_t size = 16 << 10; size <= (256UL << 20); size *= 4) {
        double small = chase(size, 0), huge = chase(size, 1);
        if (size < (1 << 20))
            printf("%zu KiB\t%.1f\t%.1f\n", size >> 10, small, huge);
        else
            printf("%zu MiB\t%.1f\t%.1f\n", size >> 20, small, huge);
    }
    return 0;
}
