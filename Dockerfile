# The app as a container: build with the dev dependencies, run with the
# production ones only, as an unprivileged user, in production mode.
#   docker build -t affiliate-app .
#   docker run -p 3000:3000 --env-file .env affiliate-app
# See README "Deploy with a container". tests/db/dockerfile-steps.test.ts runs
# these steps in a clean copy (images cannot be pulled where the tests run);
# keep the two in step.
ARG NODE_IMAGE=node:20-bookworm-slim

# The sources, and a compiler for better-sqlite3 when no prebuilt binary fits.
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_AUDIT=false NPM_CONFIG_FUND=false NPM_CONFIG_UPDATE_NOTIFIER=false
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .

# The build: Prisma clients and the Remix server and browser bundles.
FROM base AS build
RUN npm ci
RUN npm run build

# The production dependencies (postinstall applies app/patches to them).
FROM base AS deps
RUN npm ci --omit=dev

FROM ${NODE_IMAGE} AS run
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.json /app/prisma.config.ts ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/app ./app
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# Uploads and, without DATABASE_URL, nothing else: production needs PostgreSQL.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# /healthz: the process is up; orchestrators that gate traffic use /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Applies the migrations (under a lock: replicas may start together), then
# serves; WORKERS=external for web replicas beside `npm run worker` ones.
CMD ["node", "--import", "tsx", "app/cli/start.ts"]
