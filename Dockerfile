# syntax=docker/dockerfile:1
# Build: a Swift toolchain image compiles a static-stdlib release binary.
# Swift 6.2 at least: several dependencies declare swift-tools-version 6.2; 6.3 is what CI builds and tests with.
ARG SWIFT_IMAGE=swift:6.3-bookworm
FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libqrencode-dev libpng-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
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
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/app/LinkServer"]
CMD ["--data-dir", "/var/lib/linkserver/data", "--config", "/app/config/linkserver.json", "--routes", "/app/config/routes.json"]
