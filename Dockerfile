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
#
# A second image, built only when asked for: the conformance kit (conformance/README.md), to run
# against a relying party in CI (conformance/CI.md). Its entrypoint is the kit's command, so
# arguments go straight to it; reports go to /report (`--out /report` unless you pass --out).
# --network host: the kit's emulator listens on the host's 127.0.0.1, where your relying party
# (started before, on the host) reaches it; --user: the reports belong to you, not to uid 1000.
#
#   docker build --target conformance -t idv-conformance .
#   podman build --format docker --target conformance -t idv-conformance .
#   docker run --rm --network host --user "$(id -u):$(id -g)" \
#     -v "$PWD/jwks.json:/input/jwks.json:ro" -v "$PWD/conformance-report:/report" idv-conformance \
#     --client-id my-rp --client-jwks /input/jwks.json --redirect-uri http://127.0.0.1:8000/callback \
#     --start-url http://127.0.0.1:8000/ --emulator-port 3999

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

# 3. The conformance kit: what `npm run conformance` loads, and no more. The kit's packages and
#    theirs, as `npm ci` installed them above (npm query follows the lock file's dependency edges,
#    optional ones for this platform included, e.g. esbuild's binary for tsx); its sources and
#    the parts of lib/ it imports (lint keeps lib/emulator, lib/store and lib/i18n from importing
#    the rest), with the emulator's assets and portraits, read from the working folder; no tests.
#    Next.js, React and the rest of the app's 600 MB stay out. `npm run test:container` runs
#    every case with this image, so a package missing here fails there.
FROM dependencies AS conformance-files
RUN packages='#tsx, #playwright-core, #jose, #zod, #@peculiar/x509, #reflect-metadata, #qrcode, #cookie, #i18n-iso-countries, #negotiator, #rate-limiter-flexible'; \
    npm query ":root > :is($packages), :root > :is($packages) *" \
      | node -p 'JSON.parse(require("node:fs").readFileSync(0, "utf8")).map((node) => node.location).join("\n")' \
      | xargs cp -a --parents -t /tmp \
    && mv /tmp/node_modules /kit-node_modules
WORKDIR /kit
COPY package.json tsconfig.json ./
COPY conformance ./conformance
COPY lib/emulator ./lib/emulator
COPY lib/store ./lib/store
COPY lib/i18n ./lib/i18n
RUN mv /kit-node_modules node_modules && find conformance lib -name '*.test.ts' -delete

# 4. The conformance kit's image (`--target conformance`): Debian's headless Chromium (the kit
#    finds /usr/bin/chromium-headless-shell, conformance/browser.ts) and a font for the
#    screenshots, the files above owned by root and read-only to the kit, which runs as `node`
#    and may write its reports folder, /report.
FROM ${NODE_IMAGE} AS conformance
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium-headless-shell fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
    && mkdir /report && chown node:node /report
# The working folder is the kit's: the emulator reads its assets relative to it.
WORKDIR /kit
COPY --from=conformance-files /kit ./
USER node
# Arguments after the image name follow these; a later --out wins (node:util parseArgs keeps an
# option's last value). Node is PID 1 and receives SIGTERM itself (`docker stop`, a cancelled
# job): the case under way ends, then the kit stops its emulator and Chromium.
ENTRYPOINT ["node", "--import", "tsx", "conformance/cli.ts", "--out", "/report"]

# 5. What runs: the standalone folder and its launcher, owned by root and read-only to the app;
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
