# social-gateway: multi-stage build of a release binary, run as a non-root user.
# (Written without a Docker engine at hand: build it with `docker build -t social-gateway .`.)
#
#   docker run -p 8080:8080 -v gateway-data:/data social-gateway           # embedded store
#   docker run -p 8080:8080 -e SUPABASE_URL=... -e SUPABASE_ANON_KEY=... social-gateway
#
# ---- build ------------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev libcurl4-openssl-dev libdeflate-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# The manifest checks every declared target's folder, tests included, so all three come in
# before the first swift command. (Package.resolved pins the versions when it is present.)
COPY Package.* ./
COPY Sources ./Sources
COPY Tests ./Tests
# Debug info is stripped (205 MB -> 125 MB); symbol names stay, so crash backtraces keep them.
RUN swift build -c release --product social-gateway --static-swift-stdlib \
    && mkdir /staging \
    && cp "$(swift build -c release --show-bin-path)/social-gateway" /staging/ \
    && strip --strip-debug /staging/social-gateway \
    && cp -R "$(swift build -c release --show-bin-path)"/*.resources /staging/

# ---- run --------------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        libsqlite3-0 libcurl4 libdeflate0 ca-certificates tzdata curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin gateway \
    && mkdir -p /app /data && chown gateway:gateway /data
WORKDIR /app
# The binary finds its resource bundles (schema, playground) next to itself.
COPY --from=build /staging/ /app/
USER gateway
ENV HOST=0.0.0.0 \
    DEMO_TOKENS=false \
    SEED_DEMO_DATA=false \
    RESET_LINKS_IN_LOG=false \
    PORT=8080 \
    DATA_DIR=/data \
    LOG_LEVEL=info
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
ENTRYPOINT ["/app/social-gateway"]
CMD ["serve"]
