import { defineConfig } from 'prisma/config';

// Prisma 7 reads no .env; DATABASE_URL is only needed by `prisma migrate deploy` against PostgreSQL.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/asset_finance' },
});
