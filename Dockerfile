# The service image. Dependencies are installed once, at build time, so `docker compose up` starts in seconds and
# does not reinstall; rebuild (`docker compose up --build`) after changing package.json.
# Node 24, the Active LTS line (22 is in maintenance): its HTTP layer and young-generation GC serve this service's hot
# path best of the LTS lines (docs/performance.md, "Node 22 and 24"); the whole suite passes on 20, 22 and 24.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PRISMA_HIDE_UPDATE_MESSAGE=1

# Manifests first: this layer is reused until they change. `npm ci` runs the postinstall, which generates the Prisma
# client and the Pothos types from prisma/schema.prisma.
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src
COPY docs ./docs

USER node
EXPOSE 4000
# node is PID 1 (exec form, no shell, no npm wrapper), so SIGTERM from `docker stop` reaches the service's graceful
# shutdown directly.
CMD ["node", "--import", "tsx", "src/main.ts"]
