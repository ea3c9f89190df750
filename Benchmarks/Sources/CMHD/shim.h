#ifndef CMHD_SHIM_H
#define CMHD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Replaces the variadic `MHD_start_daemon` with the option list of LinkServer's daemon (thread pool, connection
/// limit 10,000, timeout 30 s, `pool` bytes per connection, backlog 1024, address reuse), bound to `address`.
static inline struct MHD_Daemon *cmhd_start_hello(unsigned int flags, const struct sockaddr *address,
                                                  unsigned int threads, size_t pool,
                                                  MHD_AccessHandlerCallback handler, void *handler_cls) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 10000u,
                            MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                            pool, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
}

/// Replaces the variadic `MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT)`.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
