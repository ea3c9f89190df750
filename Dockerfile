# syntax=docker/dockerfile:1
# Build: a Swift toolchain image compiles a static-stdlib release binary.
# Swift 6.2 at least: several dependencies declare swift-tools-version 6.2; 6.3 is what CI builds and tests with.
ARG SWIFT_IMAGE=swift:6.3-bookworm
FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libqrencode-dev libpng-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Package.resolved when the build context has one (git ignores it): the versions the host built and tested.
COPY Package.swift Package.resolve[d] ./
RUN swift package resolve
COPY Sources ./Sources
# SwiftPM refuses a manifest whose declared targets have no folder, test targets included.
COPY Tests ./Tests
RUN swift build -c release --product LinkServer --static-swift-stdlib \
    && mkdir -p /out \
    && cp "$(swift build -c release --show-bin-path)/LinkServer" /out/ \
    && find "$(swift build -c release --show-bin-path)" -maxdepth 1 -name '*.resources' -exec cp -R {} /out/ \;

# Run: slim Debian with only the C libraries the binary links, as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libqrencode4 libpng16-16 curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 linkserver \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/linkserver --create-home linkserver \
    && mkdir -p /var/lib/linkserver/data \
    && chown -R linkserver:linkserver /var/lib/linkserver
WORKDIR /app
COPY --from=build /out/ /app/
COPY config/ /app/config/
USER 10001:10001
EXPOSE 8080 8081
VOLUME ["/var/lib/linkserver/data"]
# Settings as environment variables, not as flags: flags come before the environment, so `docker run -e
# LINK_CONFIG=/config/mine.json` would be ignored, and arguments given to `docker run` (`--port 9000`) would replace
# a CMD's and lose the data folder. config/linkserver.json is the example's (its example apps, links.hosts): mount
# your own and name it in LINK_CONFIG (docs/deployment.md).
ENV LINK_DATA_DIR=/var/lib/linkserver/data \
    LINK_CONFIG=/app/config/linkserver.json \
    LINK_ROUTES=/app/config/routes.json
# A shell, for LINK_PORT (8080 when unset).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/bin/sh", "-c", "curl -fsS \"http://127.0.0.1:${LINK_PORT:-8080}/healthz\""]
ENTRYPOINT ["/app/LinkServer"]
