# The service image. Dependencies are installed once, at build time, so `docker compose up` starts in seconds and
# does not reinstall; rebuild (`docker compose up --build`) after changing package.json.
FROM node:22-bookworm-slim
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
