#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Called by MHD with the raw request target (before any unescaping), once per request.
/// Its return value becomes the request's initial `*req_cls`.
typedef void *(*cmhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Settings for `cmhd_start_daemon`, a fixed-layout struct so Swift never builds a varargs list.
struct cmhd_daemon_settings {
    unsigned int flags;
    uint16_t port;
    /// Bind address, or NULL for every interface.
    const struct sockaddr *bind_address;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
};

/// Replaces the variadic `MHD_start_daemon(flags, port, apc, apc_cls, dh, dh_cls, ...options..., MHD_OPTION_END)`
/// with the option list this service uses: thread pool, connection limit and timeout, per-connection memory,
/// the request-completed callback and the raw-URI callback.
static inline struct MHD_Daemon *cmhd_start_daemon(const struct cmhd_daemon_settings *settings,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   cmhd_uri_log_callback uri_log, void *uri_log_cls) {
    if (settings->bind_address != NULL) {
        return MHD_start_daemon(settings->flags, settings->port, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_SOCK_ADDR, settings->bind_address,
                                MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
                                MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                                MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                                MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog,
                                MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(settings->flags, settings->port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog,
                            MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_END);
}

/// Replaces the variadic `MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)`: the port actually bound
/// (useful with port 0), or 0 when it cannot be read.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Replaces the variadic `MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS)`.
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

#endif
