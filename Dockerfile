# syntax=docker/dockerfile:1
# ToolEmu Studio image. The same image runs the web app (`npm start`, the default) and the
# background worker (`npm run worker`); see docker-compose.yml.

# ---- deps: install exactly the lockfile; postinstall runs `prisma generate` (no DB needed) ----
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
# Only what `npm ci` + `prisma generate` read, so this layer is cached until dependencies change.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci

# ---- build: compile Next once, at image build time, and stamp it so `npm start` won't rebuild ----
FROM deps AS build
COPY . .
# `npm run build` stamps .next/toolemu-build-hash with the sources' hash, so `npm start` in the
# container finds the build fresh and starts at once.
RUN npm run build \
 && test -s .next/toolemu-build-hash \
 && rm -rf .next/cache

# ---- runtime ----
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_SCRIPT_SHELL=/bin/bash \
    HOST=0.0.0.0 \
    PORT=3000
# The whole tree (sources, node_modules incl. tsx, generated Prisma client, .next) because
# start.ts, the worker and the CLI run TypeScript through tsx, and the stamp hash covers the
# sources. Owned by `node` so Next can write .next/cache (and .data/ if run without DATABASE_URL).
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# No curl in slim images: use Node's built-in fetch. The start period covers migrations.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# start.ts: connect to DATABASE_URL, apply migrations, then `next start` on HOST:PORT.
# npm forwards SIGTERM only to its script shell; dash would die and orphan the app, while
# bash execs the script, so `docker stop` reaches start.ts and it shuts down cleanly.
CMD ["npm", "start"]
