# The app as one image: Next.js's standalone server (`npm run build`), on Node 20, started by
# scripts/start.mjs as `npm start` starts it, run as the unprivileged `node` user. Configure it
# with environment variables (docs/operations.md "Configuration"); SESSION_SECRET is required. Several
# instances behind a balancer: compose.yaml. `npm run test:container` builds and tries this image.
#
#   docker build -t idv-relying-party .
#   podman build --format docker -t idv-relying-party .   # Docker's format keeps the HEALTHCHECK
#   docker run -p 127.0.0.1:3000:3000 -e SESSION_SECRET="$(openssl rand -base64 32)" idv-relying-party
#
# On another port, the same one inside and out (-e PORT=8081 -p 127.0.0.1:8081:8081): in emulator
# mode the app calls its own emulator at APP_URL, which is http://localhost:PORT unless set.
#
# Behind a proxy that inspects TLS, npm needs that proxy's CA: pass the machine's bundle as a
# build secret (mounted for the one `npm ci`, never written into a layer):
#
#   docker build --secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt -t idv-relying-party .
#
# No `# syntax=` line: the builder's own Dockerfile frontend reads this file (Docker 23+ with
# BuildKit, Podman 4), so a build needs no image but NODE_IMAGE.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Dependencies, exactly as package-lock.json has them (it holds every platform's optional
#    binaries, so `npm ci` installs this platform's: .ci/run checks that it still does).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=ca-certificates \
    if [ -f /run/secrets/ca-certificates ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates; fi; \
    npm ci --no-audit --no-fund

# 2. The build: .next/standalone is the whole app (server, its node_modules, public/, static assets).
FROM dependencies AS build
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
RUN npm run build

# 3. What runs: the standalone folder and its launcher, owned by root and read-only to the app;
#    the app may write only its data folder (the keys it generates in emulator mode without Redis).
FROM ${NODE_IMAGE} AS app
WORKDIR /app
# HOST and PORT: where the server listens, and where the health check asks (scripts/start.mjs
# hands HOST to Next.js, whose own HOSTNAME a container sets to its name).
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    IDV_DATA_DIR=/data
RUN mkdir /data && chown node:node /data
COPY --from=build /app/.next/standalone ./.next/standalone
COPY scripts/start.mjs scripts/start-options.mjs scripts/server-processes.mjs ./scripts/
COPY deploy/healthcheck.mjs ./deploy/healthcheck.mjs
USER node
EXPOSE 3000
# Alive: /healthz. (/readyz also checks the store; a balancer should ask that one.) Kept only in
# Docker's image format: `podman build --format docker` (OCI has no health check).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "/app/deploy/healthcheck.mjs"]
# Node receives SIGTERM itself (no shell in between): in-flight requests finish, then it exits.
CMD ["node", "scripts/start.mjs"]
