/*
 * Long-poll load generator for the event bus (API.md §5), driven by scripts/bench-longpoll.
 *
 * One thread, one epoll loop, non-blocking sockets to 127.0.0.1 only. It creates N subscriptions, then:
 *   fanout:  holds N waiting polls (GET /v1/events/subscriptions/ID?after=CURSOR&wait=60), each on its own
 *            connection, emits (POST /v1/events/emit), and measures the time from sending the emit until every
 *            poll has been answered; with --pid it reads the server's RSS before the polls, while they are held
 *            and after they are answered. With --rounds R (default 1 in this mode) the polls are held again and
 *            the emit repeated R times: all_answered_ms is the median round, first_answered_ms the first (the
 *            server's first fan-out), min/max_answered_ms the others' spread.
 *   latency: holds N polls, emits ROUNDS times; once all N are answered they poll again with the new cursor,
 *            and the next emit waits until all N are waiting again. Reports emit-to-delivery latency percentiles
 *            over every delivery: from just before the emit is written to the epoll wake-up that reported the
 *            answer (one timestamp per wake-up, so reading a batch of answers does not inflate the later ones).
 * Every phase has a deadline, so a run ends by itself; exit status 1 when something did not complete.
 *
 * Usage: longpoll_load --port P --subscribers N [--mode fanout|latency] [--rounds R] [--pid PID]
 *        [--poll-ports P1,P2,...] [--emit-port P]   (several instances: subscribe and poll round-robin over the
 *        poll ports, emit on the emit port; both default to --port)
 *        [--settle S]   seconds given to the server between rounds to suspend the new polls (default 0.02)
 *        [--held-metric 1]   instead of a fixed pause, before the first emit and between rounds wait until the
 *                      poll ports' GET /metrics report linkserver_polls_waiting adding up to the polls sent (a
 *                      server that stores each poll, as several instances on PostgreSQL do, takes its time)
 *        [--verbose 1]   per round on stderr: when the emit and the last poll were answered, and every
 *                      delivery slower than 100 ms with its port
 *                      [--deadline SECONDS]
 * Output: one line of key=value pairs on stdout.
 * Build:  gcc -O2 -o longpoll_load longpoll_load.c -lm
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum state { IDLE, CONNECTING, SENDING, READING };

struct conn {
    int fd;
    enum state state;
    int index; /* subscription index for polls, -1 otherwise */
    char out[768];
    size_t out_len, out_off;
    char in[4096];
    size_t in_len;
    int watching_out; /* registered for EPOLLOUT (connecting, or a write that did not fit) rather than EPOLLIN */
};

struct subscription {
    char id[96];
    long cursor;
};

static int epfd;
static unsigned short port;
static unsigned short poll_ports[16];
static int poll_port_count;
static unsigned short emit_port;
static double round_settle = 0.02;
static int verbose;
static int held_metric; /* wait until the servers' linkserver_polls_waiting adds up to the polls sent */
static struct subscription *subs;
static double deadline;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "longpoll_load: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    exit(1);
}

/* One of the memory lines of /proc/PID/status (VmRSS:, RssAnon:, RssFile:) in KiB; -1 when unknown. */
static long status_kib(int pid, const char *field) {
    if (pid <= 0) return -1;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    long kib = -1;
    size_t length = strlen(field);
    while (fgets(line, sizeof line, file))
        if (strncmp(line, field, length) == 0) kib = strtol(line + length, NULL, 10);
    fclose(file);
    return kib;
}

static long rss_kib(int pid) { return status_kib(pid, "VmRSS:"); }

static void watch(struct conn *c, unsigned int events, int op) {
    struct epoll_event event = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &event) != 0) fail("epoll_ctl: %s", strerror(errno));
}

/* Starts a non-blocking connect to 127.0.0.1:to. */
static void open_conn(struct conn *c, unsigned short to) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) fail("socket: %s", strerror(errno));
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(to)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    c->in_len = 0;
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS)
        fail("connect: %s", strerror(errno));
    c->state = CONNECTING;
    c->watching_out = 1;
    watch(c, EPOLLOUT, EPOLL_CTL_ADD);
}

static int flush(struct conn *c);

/* Sends one request: at once when connected, else as soon as the connection is. */
static void request(struct conn *c, const char *method, const char *target, const char *body) {
    size_t length = body ? strlen(body) : 0;
    int n = snprintf(c->out, sizeof c->out,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     method, target, length, body ? body : "");
    if (n < 0 || (size_t)n >= sizeof c->out) fail("request too long");
    c->out_len = (size_t)n;
    c->out_off = 0;
    c->in_len = 0;
    if (c->state != CONNECTING) {
        c->state = SENDING;
        flush(c);
    }
}

/* Writes what it can; returns 1 once the whole request is out (the connection then waits for the answer on
 * EPOLLIN). A write that does not fit waits for EPOLLOUT. */
static int flush(struct conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno != EAGAIN) fail("send: %s", strerror(errno));
            if (!c->watching_out) watch(c, EPOLLOUT, EPOLL_CTL_MOD);
            c->watching_out = 1;
            return 0;
        }
        c->out_off += (size_t)n;
    }
    c->state = READING;
    if (c->watching_out) watch(c, EPOLLIN, EPOLL_CTL_MOD);
    c->watching_out = 0;
    return 1;
}

/* Reads; returns the HTTP status once a whole response (with Content-Length) is in `c->in`, 0 before, and
 * fails when the server closes the connection. */
static int receive(struct conn *c, const char **body) {
    /* One recv per readiness: answers are small, and epoll reports the rest if there is more. */
    if (c->in_len == sizeof c->in - 1) fail("response too large");
    ssize_t n = recv(c->fd, c->in + c->in_len, sizeof c->in - 1 - c->in_len, 0);
    if (n < 0) {
        if (errno == EAGAIN) return 0;
        fail("recv: %s", strerror(errno));
    }
    if (n == 0) fail("server closed a connection");
    c->in_len += (size_t)n;
    c->in[c->in_len] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (end == NULL) return 0;
    long length = 0;
    for (char *line = strstr(c->in, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n"))
        if (strncasecmp(line + 2, "Content-Length:", 15) == 0) length = strtol(line + 17, NULL, 10);
    if ((long)(c->in + c->in_len - (end + 4)) < length) return 0;
    *body = end + 4;
    return atoi(c->in + 9);
}

/* The number after `"key":` in a JSON text, or -1. */
static long json_number(const char *text, const char *key) {
    const char *at = strstr(text, key);
    if (at == NULL) return -1;
    at += strlen(key);
    while (*at == ' ' || *at == ':' || *at == '"') at++;
    return strtol(at, NULL, 10);
}

/* The string after `"key":` in a JSON text, copied into `out`. */
static void json_string(const char *text, const char *key, char *out, size_t size) {
    const char *at = strstr(text, key);
    if (at == NULL) fail("no %s in %s", key, text);
    at = strchr(at + strlen(key), '"');
    if (at == NULL) fail("bad %s in %s", key, text);
    at++;
    size_t n = 0;
    while (at[n] && at[n] != '"' && n + 1 < size) n++;
    memcpy(out, at, n);
    out[n] = 0;
}

static void poll_request(struct conn *c) {
    char target[192];
    snprintf(target, sizeof target, "/v1/events/subscriptions/%s?after=%ld&wait=60", subs[c->index].id,
             subs[c->index].cursor);
    request(c, "GET", target, NULL);
}

static const char subscribe_body[] = "{\"events\":[{\"path\":\"/bench/tick\",\"name\":\"benchTick\"}],\"ttl\":3600}";

/* Creates `n` subscriptions over a few keep-alive connections. */
static void subscribe_all(int n) {
    enum { PARALLEL = 16 };
    struct conn conns[PARALLEL];
    memset(conns, 0, sizeof conns);
    int issued = 0, created = 0;
    for (int i = 0; i < PARALLEL && i < n; i++) {
        open_conn(&conns[i], poll_ports[i % poll_port_count]);
        conns[i].index = issued++;
        request(&conns[i], "POST", "/v1/events/subscriptions", subscribe_body);
    }
    struct epoll_event events[64];
    while (created < n) {
        if (now() > deadline) fail("subscribing timed out (%d of %d)", created, n);
        int ready = epoll_wait(epfd, events, 64, 100);
        for (int e = 0; e < ready; e++) {
            struct conn *c = events[e].data.ptr;
            if (c->state == CONNECTING || c->state == SENDING) {
                c->state = SENDING;
                flush(c);
                continue;
            }
            const char *body;
            int status = receive(c, &body);
            if (status == 0) continue;
            c->state = IDLE;
            if (status != 201) fail("subscribe answered %d: %s", status, body);
            json_string(body, "\"id\"", subs[c->index].id, sizeof subs[c->index].id);
            subs[c->index].cursor = json_number(body, "\"cursor\"");
            created++;
            if (issued < n) {
                c->index = issued++;
                request(c, "POST", "/v1/events/subscriptions", subscribe_body);
            }
        }
    }
    for (int i = 0; i < PARALLEL && i < n; i++) close(conns[i].fd);
}

/* Opens one connection per subscription and sends each poll, at most 256 connects in flight at a time. */
static void hold_polls(struct conn *polls, int n) {
    int opened = 0, sent = 0, connecting = 0;
    struct epoll_event events[256];
    while (sent < n) {
        while (opened < n && connecting < 256) {
            polls[opened].index = opened;
            open_conn(&polls[opened], poll_ports[opened % poll_port_count]);
            poll_request(&polls[opened]);
            opened++;
            connecting++;
        }
        if (now() > deadline) fail("opening polls timed out (%d of %d sent)", sent, n);
        int ready = epoll_wait(epfd, events, 256, 100);
        for (int e = 0; e < ready; e++) {
            struct conn *c = events[e].data.ptr;
            if (c->state == READING) fail("a poll was answered before any emit: %s", c->in);
            if (c->state == CONNECTING) {
                connecting--;
                c->state = SENDING;
            }
            if (flush(c)) sent++;
        }
    }
}

/* Waits `seconds` while polls are held; any answer meanwhile is an error (nothing was emitted). */
static void settle(double seconds) {
    double until = now() + seconds;
    struct epoll_event events[64];
    while (now() < until) {
        int ready = epoll_wait(epfd, events, 64, 10);
        for (int e = 0; e < ready; e++) {
            struct conn *c = events[e].data.ptr;
            const char *body;
            if (c->state == READING && receive(c, &body)) fail("a poll was answered before any emit: %s", c->in);
        }
    }
}

/* The server's linkserver_polls_waiting gauge (GET /metrics on a blocking connection of its own), -1 when absent. */
static long polls_waiting(unsigned short to) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail("socket: %s", strerror(errno));
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(to)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect: %s", strerror(errno));
    const char *ask = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (write(fd, ask, strlen(ask)) != (ssize_t)strlen(ask)) fail("write: %s", strerror(errno));
    static char page[1 << 20];
    size_t length = 0;
    for (ssize_t got; length + 1 < sizeof page && (got = read(fd, page + length, sizeof page - 1 - length)) > 0;)
        length += (size_t)got;
    close(fd);
    page[length] = 0;
    const char *at = strstr(page, "\nlinkserver_polls_waiting ");
    return at ? strtol(at + strlen("\nlinkserver_polls_waiting "), NULL, 10) : -1;
}

/* Waits until n polls are held, as the servers report them (with --held-metric; each poll may be a database
 * transaction), else for `seconds`. */
static void settle_held(int n, double seconds) {
    if (!held_metric) {
        settle(seconds);
        return;
    }
    for (;;) {
        long held = 0;
        for (int p = 0; p < poll_port_count; p++) {
            long waiting = polls_waiting(poll_ports[p]);
            if (waiting < 0) fail("no linkserver_polls_waiting in GET /metrics on port %d", poll_ports[p]);
            held += waiting;
        }
        if (held >= n) return;
        if (now() > deadline) fail("only %ld of %d polls held", held, n);
        settle(0.01);
    }
}

/* The keep-alive connection for the emits, connected before anything is measured. */
static struct conn emitter;

static void open_emitter(void) {
    emitter.index = -1;
    open_conn(&emitter, emit_port);
    struct epoll_event events[1];
    while (epoll_wait(epfd, events, 1, 1000) != 1 || events[0].data.ptr != &emitter)
        if (now() > deadline) fail("cannot connect the emitter");
    int error = 0;
    socklen_t size = sizeof error;
    getsockopt(emitter.fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error != 0) fail("connect: %s", strerror(error));
    emitter.state = IDLE;
    watch(&emitter, EPOLLIN, EPOLL_CTL_MOD);
}

static void emit_send(int round) {
    char body[96];
    snprintf(body, sizeof body, "{\"loc\":\"/bench/tick\",\"extra\":{\"round\":%d}}", round);
    request(&emitter, "POST", "/v1/events/emit", body);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *sorted, long count, double p) {
    long at = (long)(p * (double)(count - 1) + 0.5);
    return sorted[at];
}

int main(int argc, char **argv) {
    int n = 1000, rounds = -1, pid = 0;
    double limit = 120;
    const char *mode = "fanout";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port") == 0) port = (unsigned short)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--subscribers") == 0) n = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0) mode = argv[i + 1];
        else if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--pid") == 0) pid = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--deadline") == 0) limit = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--emit-port") == 0) emit_port = (unsigned short)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--settle") == 0) round_settle = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--verbose") == 0) verbose = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--held-metric") == 0) held_metric = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--poll-ports") == 0) {
            for (char *item = strtok(argv[i + 1], ","); item != NULL && poll_port_count < 16; item = strtok(NULL, ","))
                poll_ports[poll_port_count++] = (unsigned short)atoi(item);
        }
        else fail("unknown option %s", argv[i]);
    }
    if (port == 0 || n <= 0) fail("usage: longpoll_load --port P --subscribers N [--mode fanout|latency] ...");
    int latency_mode = strcmp(mode, "latency") == 0;
    if (!latency_mode && strcmp(mode, "fanout") != 0) fail("--mode is fanout or latency, not %s", mode);
    if (rounds < 0) rounds = latency_mode ? 30 : 1;
    if (rounds < 1) fail("--rounds must be at least 1");
    if (emit_port == 0) emit_port = port;
    if (poll_port_count == 0) poll_ports[poll_port_count++] = port;
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
    if (files.rlim_cur < (rlim_t)n + 64) fail("RLIMIT_NOFILE %ld is below %d", (long)files.rlim_cur, n + 64);

    deadline = now() + limit;
    epfd = epoll_create1(EPOLL_CLOEXEC);
    subs = calloc((size_t)n, sizeof *subs);
    struct conn *polls = calloc((size_t)n, sizeof *polls);
    if (subs == NULL || polls == NULL) fail("out of memory");

    subscribe_all(n);
    open_emitter();
    long rss_before = rss_kib(pid);

    hold_polls(polls, n);
    settle_held(n, 0.5 + n / 20000.0);
    long rss_held = rss_kib(pid);
    /* RSS in two parts: private memory, and pages of mapped files (code and data of the program and its libraries,
     * shared with every process that maps them). */
    long rss_held_anon = status_kib(pid, "RssAnon:"), rss_held_file = status_kib(pid, "RssFile:");

    int round_count = rounds;
    long total = (long)n * round_count;
    double *latencies = calloc((size_t)total, sizeof *latencies);
    double *round_ms = calloc((size_t)round_count, sizeof *round_ms);
    if (latencies == NULL || round_ms == NULL) fail("out of memory");
    long delivered = 0;
    double emit_answer_ms = 0, all_answered_ms = 0;
    struct epoll_event events[256];
    for (int round = 0; round < round_count; round++) {
        int answered = 0, emit_done = 0;
        double start = now();
        emit_send(round);
        while (answered < n || !emit_done) {
            if (now() > deadline) fail("round %d timed out: %d of %d answered", round, answered, n);
            int ready = epoll_wait(epfd, events, 256, 100);
            /* Every answer in this batch arrived by now: reading them one by one must not add to their latency. */
            double at = now();
            for (int e = 0; e < ready; e++) {
                struct conn *c = events[e].data.ptr;
                const char *body;
                if (c->state == SENDING) {
                    flush(c);
                    continue;
                }
                if (c->state != READING) continue;
                int status = receive(c, &body);
                if (status == 0) continue;
                if (c == &emitter) {
                    if (status != 200) fail("emit answered %d: %s", status, body);
                    emit_answer_ms = (at - start) * 1000;
                    emit_done = 1;
                    c->state = IDLE;
                    continue;
                }
                if (status != 200) fail("poll answered %d: %s", status, body);
                latencies[delivered++] = (at - start) * 1000;
                answered++;
                if (verbose && (at - start) * 1000 > 100)
                    fprintf(stderr, "round %d: poll %d (port %d) answered after %.1f ms\n", round, c->index,
                            poll_ports[c->index % poll_port_count], (at - start) * 1000);
                subs[c->index].cursor = json_number(body, "\"cursor\"");
                c->state = IDLE;
            }
        }
        all_answered_ms = (now() - start) * 1000;
        round_ms[round] = all_answered_ms;
        if (verbose)
            fprintf(stderr, "round %d: emit answered after %.1f ms, all %d answered after %.1f ms\n", round,
                    emit_answer_ms, n, all_answered_ms);
        if (round + 1 < round_count) {
            /* Poll again with the new cursors (outside the measured time), wait until every poll is out, then give
             * the server a moment to suspend them. */
            for (int i = 0; i < n; i++) poll_request(&polls[i]);
            for (int waiting = 0; waiting < n;) {
                if (now() > deadline) fail("re-polling timed out");
                waiting = 0;
                for (int i = 0; i < n; i++) waiting += polls[i].state == READING;
                int ready = epoll_wait(epfd, events, 256, 1);
                for (int e = 0; e < ready; e++) {
                    struct conn *c = events[e].data.ptr;
                    if (c->state == SENDING) flush(c);
                }
            }
            /* A fan-out round holds as many polls as the first hold did, and gets as long to suspend them. */
            settle_held(n, latency_mode ? round_settle : 0.5 + n / 20000.0);
        }
    }
    long rss_after = rss_kib(pid);
    qsort(latencies, (size_t)delivered, sizeof *latencies, compare);
    /* One fan-out's time is one sample of a busy two-core host; over several rounds the median is the figure. */
    double first_answered_ms = round_ms[0];
    qsort(round_ms, (size_t)round_count, sizeof *round_ms, compare);
    printf("mode=%s subscribers=%d rounds=%d delivered=%ld all_answered_ms=%.1f first_answered_ms=%.1f "
           "min_answered_ms=%.1f max_answered_ms=%.1f emit_answer_ms=%.2f "
           "p50_ms=%.2f p99_ms=%.2f max_ms=%.2f rss_before_kib=%ld rss_held_kib=%ld rss_after_kib=%ld "
           "rss_held_anon_kib=%ld rss_held_file_kib=%ld\n",
           mode, n, round_count, delivered, round_ms[round_count / 2], first_answered_ms, round_ms[0],
           round_ms[round_count - 1], emit_answer_ms, percentile(latencies, delivered, 0.5),
           percentile(latencies, delivered, 0.99), latencies[delivered - 1], rss_before, rss_held, rss_after,
           rss_held_anon, rss_held_file);
    for (int i = 0; i < n; i++) close(polls[i].fd);
    close(emitter.fd);
    return 0;
}
