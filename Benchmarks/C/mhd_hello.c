/*
 * Bare libmicrohttpd hello-world: the lower bound of the HTTP table in scripts/bench.
 *
 * Same daemon settings as LinkServer's Daemon (Sources/LinkServer/MicroHTTPD): internal polling thread, epoll,
 * a thread pool of N, suspend/resume allowed, the same connection limit, timeout, per-connection memory and
 * backlog. Like the service, it answers on the second call of a request (the first one only sees the headers)
 * with a response created per request from a copied buffer plus a Content-Type header.
 *
 * Usage: mhd_hello PORT THREADS [POOL_BYTES]
 *   port 0 picks a free one; the pool defaults to 16 KiB, the service's; prints "listening on http://127.0.0.1:PORT".
 * Build: gcc -O2 -o mhd_hello mhd_hello.c $(pkg-config --cflags --libs libmicrohttpd)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char body[] = "{\"status\":\"ok\"}";

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **req_cls) {
    static int seen;
    (void)cls, (void)url, (void)method, (void)version, (void)upload_data;
    if (*req_cls == NULL) {
        *req_cls = &seen;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    struct MHD_Response *response =
        MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

int main(int argc, char **argv) {
    unsigned short port = argc > 1 ? (unsigned short)atoi(argv[1]) : 0;
    unsigned int threads = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
    size_t pool = argc > 3 ? (size_t)atol(argv[3]) : 16 * 1024;
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
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 10000u, MHD_OPTION_CONNECTION_TIMEOUT,
        30u, MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "mhd_hello: cannot start the daemon\n");
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "listening on http://127.0.0.1:%u\n", info ? info->port : port);
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    return 0;
}
