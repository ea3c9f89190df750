/*
 * Minimal libmicrohttpd suspend/resume server: the baseline of the long-poll benchmark (scripts/bench-longpoll).
 *
 * It speaks just enough of API.md §5 for the same load generator to drive it and LinkServer alike, with one
 * event stream shared by every subscription:
 *   POST /v1/events/subscriptions        -> 201 {"id":"sN","cursor":SEQ}
 *   GET  /v1/events/subscriptions/ID?after=A
 *                                        -> at once when SEQ > A, else the connection is suspended until an emit
 *   POST /v1/events/emit                 -> SEQ += 1, resumes every suspended poll; 200 {"seq":SEQ,"delivered":N}
 *   anything else                        -> 200 {"status":"ok"}
 * Answered polls carry {"events":[{"seq":SEQ}],"cursor":SEQ,"missed":0}. There is no wait timer: the benchmark
 * always emits well before its polls' `wait`.
 *
 * Same daemon settings as LinkServer (internal polling thread, epoll, thread pool of N, suspend/resume).
 * Usage: mhd_longpoll PORT THREADS [POOL_BYTES] (default 16 KiB, as the service); prints "listening on http://127.0.0.1:PORT" on stderr.
 * Build: gcc -O2 -pthread -o mhd_longpoll mhd_longpoll.c $(pkg-config --cflags --libs libmicrohttpd)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum phase { RECEIVING, SUSPENDED, RESUMED };

struct request {
    enum phase phase;
    struct MHD_Connection *connection;
    struct request *next_waiter;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct request *waiters; /* suspended polls, under `lock` */
static unsigned long seq;       /* under `lock` */
static unsigned long subscriptions;

static enum MHD_Result reply(struct MHD_Connection *connection, unsigned int status, const char *body) {
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

static enum MHD_Result events(struct MHD_Connection *connection, unsigned long current) {
    char body[128];
    snprintf(body, sizeof body, "{\"events\":[{\"seq\":%lu}],\"cursor\":%lu,\"missed\":0}", current, current);
    return reply(connection, MHD_HTTP_OK, body);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **req_cls) {
    (void)cls, (void)version, (void)upload_data;
    struct request *request = *req_cls;
    if (request == NULL) {
        request = calloc(1, sizeof *request);
        if (request == NULL) return MHD_NO;
        request->connection = connection;
        *req_cls = request;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    char body[128];
    if (request->phase == RESUMED) {
        pthread_mutex_lock(&lock);
        unsigned long current = seq;
        pthread_mutex_unlock(&lock);
        return events(connection, current);
    }
    if (strcmp(method, "POST") == 0 && strcmp(url, "/v1/events/subscriptions") == 0) {
        pthread_mutex_lock(&lock);
        unsigned long id = ++subscriptions, current = seq;
        pthread_mutex_unlock(&lock);
        snprintf(body, sizeof body, "{\"id\":\"s%lu\",\"cursor\":%lu}", id, current);
        return reply(connection, MHD_HTTP_CREATED, body);
    }
    if (strcmp(method, "POST") == 0 && strcmp(url, "/v1/events/emit") == 0) {
        unsigned long delivered = 0;
        pthread_mutex_lock(&lock);
        unsigned long current = ++seq;
        for (struct request *waiter = waiters; waiter != NULL; waiter = waiter->next_waiter) {
            waiter->phase = RESUMED;
            MHD_resume_connection(waiter->connection);
            delivered++;
        }
        waiters = NULL;
        pthread_mutex_unlock(&lock);
        snprintf(body, sizeof body, "{\"seq\":%lu,\"delivered\":%lu,\"matched\":[]}", current, delivered);
        return reply(connection, MHD_HTTP_OK, body);
    }
    if (strcmp(method, "GET") == 0 && strncmp(url, "/v1/events/subscriptions/", 25) == 0) {
        const char *after_text = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "after");
        unsigned long after = after_text ? strtoul(after_text, NULL, 10) : 0;
        pthread_mutex_lock(&lock);
        unsigned long current = seq;
        if (current > after) {
            pthread_mutex_unlock(&lock);
            return events(connection, current);
        }
        request->phase = SUSPENDED;
        request->next_waiter = waiters;
        waiters = request;
        MHD_suspend_connection(connection);
        pthread_mutex_unlock(&lock);
        return MHD_YES;
    }
    return reply(connection, MHD_HTTP_OK, "{\"status\":\"ok\"}");
}

static void completed(void *cls, struct MHD_Connection *connection, void **req_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)cls, (void)connection, (void)code;
    free(*req_cls);
    *req_cls = NULL;
}

int main(int argc, char **argv) {
    unsigned short port = argc > 1 ? (unsigned short)atoi(argv[1]) : 0;
    unsigned int threads = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
    size_t pool = argc > 3 ? (size_t)atol(argv[3]) : 16 * 1024;
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    /* Block the stop signals before MHD starts its threads, so they inherit the mask and sigwait gets them. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    unsigned int flags =
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, port, NULL, NULL, handle, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 12000u, MHD_OPTION_CONNECTION_TIMEOUT,
        90u, MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "mhd_longpoll: cannot start the daemon\n");
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "listening on http://127.0.0.1:%u\n", info ? info->port : port);
    int received;
    sigwait(&signals, &received);
    /* Suspended connections must be resumed before MHD_stop_daemon. */
    pthread_mutex_lock(&lock);
    for (struct request *waiter = waiters; waiter != NULL; waiter = waiter->next_waiter) {
        waiter->phase = RESUMED;
        MHD_resume_connection(waiter->connection);
    }
    waiters = NULL;
    pthread_mutex_unlock(&lock);
    MHD_stop_daemon(daemon);
    return 0;
}
