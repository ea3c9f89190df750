#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Called by MHD with the raw request target (before any unescaping), once per request.
/// Its return value becomes the request's initial `*req_cls`.
typedef void *(*cmhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Receives each of libmicrohttpd's own log lines, already formatted (Swift cannot read a `va_list`).
typedef void (*cmhd_log_callback)(void *cls, const char *message);

/// Where `cmhd_format_log` sends a line: owned by the caller, alive as long as the daemon.
struct cmhd_logger {
    cmhd_log_callback callback;
    void *cls;
};

/// `MHD_OPTION_EXTERNAL_LOGGER`'s callback: formats the line (cut at 511 bytes) and hands it to the logger.
static inline void cmhd_format_log(void *cls, const char *format, va_list arguments) {
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    const struct cmhd_logger *logger = (const struct cmhd_logger *) cls;
    logger->callback(logger->cls, message);
}

/// Settings for `cmhd_start_daemon`, a fixed-layout struct so Swift never builds a varargs list.
struct cmhd_daemon_settings {
    unsigned int flags;
    uint16_t port;
    /// The address to bind (its port is `port`).
    const struct sockaddr *bind_address;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    /// Connections one client address may hold at once (0: no limit).
    unsigned int per_ip_connection_limit;
    /// Receives MHD's own log lines (with `MHD_USE_ERROR_LOG` in `flags`).
    struct cmhd_logger *logger;
};

/// Replaces the variadic `MHD_start_daemon(flags, port, apc, apc_cls, dh, dh_cls, ...options..., MHD_OPTION_END)`
/// with the option list this service uses: the accept policy (which closes new connections unanswered
/// while the daemon stops), bind address, thread pool, connection limits and timeout,
/// per-connection memory, the logger, the request-completed callback, the raw-URI callback and the connection
/// start/close callback.
static inline struct MHD_Daemon *cmhd_start_daemon(const struct cmhd_daemon_settings *settings,
                                                   MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   cmhd_uri_log_callback uri_log, void *uri_log_cls,
                                                   MHD_NotifyConnectionCallback notify, void *notify_cls) {
    /* The logger comes first: libmicrohttpd logs through the options before it with its own logger, and says so. */
    return MHD_start_daemon(settings->flags, settings->port, accept_policy, accept_policy_cls, handler, handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, cmhd_format_log, (void *) settings->logger,
                            MHD_OPTION_SOCK_ADDR, settings->bind_address,
                            MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
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

/// Replaces the variadic `MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD)`: the
/// connection's socket, or -1 when it cannot be read.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Replaces the variadic `MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT)`: the pointer the
/// connection-notify callback stored for this connection, or NULL.
static inline void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Keeps libmicrohttpd 0.9.75 from splitting the query of the target `uri` (as passed to the URI-log callback)
/// into GET arguments: it ends MHD's copy of the query right after the `?`. No public option turns that parsing
/// off, and it stores one 56-byte record per `&`-separated item in the connection's memory pool, so a few hundred
/// items within the allowed target length exhausted the pool, and MHD then lost its own 431 answer and closed the
/// connection without one. The service never reads GET arguments (it parses the query from its own copy of the
/// raw target), so nothing is lost. In 0.9.75 the URI-log callback runs after MHD has found the `?` and before it
/// parses what follows, on the connection's own read buffer, which MHD itself rewrites in place right after; this
/// writes inside the target only (the byte after `?` is part of the target or the terminator MHD already wrote).
static inline void cmhd_hide_query_from_argument_parser(const char *uri) {
    char *mark = strchr((char *) uri, '?');
    if (mark != NULL) {
        mark[1] = '\0';
    }
}

/// The bytes of the request's head as libmicrohttpd read it (request line, fields and the empty line), or 0 when
/// unknown (`MHD_get_connection_info` is variadic, which Swift cannot call).
static inline size_t cmhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Replaces the variadic `MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS)`: copies the
/// client's IP address, in network order, into `bytes` (at least 16 bytes) and returns its length (4 for IPv4, 16 for
/// IPv6), or 0 when unknown.
static inline int cmhd_client_address_bytes(struct MHD_Connection *connection, uint8_t *bytes) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        memcpy(bytes, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(bytes, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// Hands the heap's free pages back to the kernel (glibc's `malloc_trim(0)`, which Swift's Glibc module does not
/// export). Loading a large route file frees most of what parsing it allocated, and glibc keeps such memory
/// mapped: trimming after the start lowers the resident size by about 240 bytes per route (docs/benchmarks.md).
static inline void cmhd_release_free_heap(void) {
    malloc_trim(0);
}

#endif
