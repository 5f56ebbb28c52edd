# syntax=docker/dockerfile:1
#
# The app as one image: Next.js's standalone server (`npm run build`), on Node 20, run as the
# unprivileged `node` user. Configure it with environment variables (README "Configuration");
# in production SESSION_SECRET is required. Several instances behind a balancer: compose.yaml.
#
#   docker build -t idv-relying-party .
#   docker run -p 3000:3000 -e SESSION_SECRET="$(openssl rand -base64 32)" idv-relying-party

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Dependencies, as CI installs them (.ci/run says why `npm install` rather than `npm ci`).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# 2. The build: .next/standalone is the whole app (server, its node_modules, public/, static assets).
FROM dependencies AS build
ENV NEXT_TELEMETRY_DISABLED=1
COPY . .
RUN npm run build

# 3. What runs: the standalone folder only, owned by root and read-only to the app; the app may
#    write only its data folder (the keys it generates in emulator mode when none are given).
FROM ${NODE_IMAGE} AS app
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    IDV_DATA_DIR=/data
RUN mkdir /data && chown node:node /data
COPY --from=build /app/.next/standalone ./
USER node
EXPOSE 3000
# Alive: /healthz. (/readyz also checks the store; a balancer should ask that one.)
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node receives SIGTERM itself (no shell in between): in-flight requests finish, then it exits.
CMD ["node", "server.js"]
