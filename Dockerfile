# The service image: TypeScript is compiled at build time (`npm run build`, to dist/), and the container runs plain
# JavaScript (`node dist/main.js`): no TypeScript loader at start, no compile on every restart.
# Node 24, the Active LTS line (22 is in maintenance): its HTTP layer and young-generation GC serve this service's hot
# path best of the LTS lines (docs/performance.md, "Node 22 and 24"); the whole suite passes on 20, 22 and 24.
# Pinned to an exact release so a rebuild gets the same runtime; to pin the bytes too, append the digest your registry
# reports (`docker buildx imagetools inspect node:24.22.3-bookworm-slim`) as `@sha256:...` (docs/operations.md).
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV PRISMA_HIDE_UPDATE_MESSAGE=1
# Manifests first: this layer is reused until they change. `npm ci` runs the postinstall, which generates the Prisma
# client and the Pothos types from prisma/schema.prisma (into src/generated, compiled with the rest).
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Compile, then drop the development dependencies (compiler, linters, test tools) from what the image keeps.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production PRISMA_HIDE_UPDATE_MESSAGE=1 PORT=4000
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Read at run time: the migrations applied at start and the demo catalogue (never loaded in prod).
COPY prisma ./prisma
# DATA_DIR for the embedded database (compose's dev profile mounts a volume here; a new volume takes this owner).
RUN mkdir -p /home/node/data && chown node:node /home/node/data

USER node
EXPOSE 4000
# Liveness: the process serves HTTP (GET /healthz never touches the database). Orchestrators that route traffic
# should probe GET /readyz as well (docker-compose.yml does).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 (exec form, no shell, no npm wrapper), so SIGTERM from `docker stop` reaches the service's graceful
# shutdown directly.
CMD ["node", "dist/main.js"]
