# Production image of the portal (README "Container"). NOT TESTED on the development machine:
# it has no container engine. Multi-stage: build with every dependency, run with production
# dependencies only, as the unprivileged `node` user, with plain `node` on the compiled server.

# 1. Build: the React Router client and server bundles and the compiled entry (build/server/main.js).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: the lock file lacks some other platforms' optional packages, which `npm ci` refuses.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only (no tsx, Vite, Playwright, …).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --legacy-peer-deps: better-auth declares drizzle-kit and vitest (and so tsx, Vite, esbuild) as peers;
# npm would install them. The server needs none of them (checked: it starts and serves without).
RUN npm install --omit=dev --legacy-peer-deps --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. Runtime.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/build ./build
COPY --chown=root:root package.json ./
COPY --chown=root:root drizzle ./drizzle
# The only writable place: PGlite's directory and .eml files when there is no SMTP server.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /healthz is the liveness probe (the process and its database answer); /readyz turns 503 while stopping.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful shutdown (SHUTDOWN_TIMEOUT_MS, default 10 s; keep `stop_grace_period` above it).
STOPSIGNAL SIGTERM
CMD ["node", "build/server/main.js"]
