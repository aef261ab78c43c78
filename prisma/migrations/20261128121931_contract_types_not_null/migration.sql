-- Fields the spec types without "nullable" are stored as the spec's value, never null (docs/api-decisions.md "Types as
-- the spec writes them"). Existing nulls first become what they meant:
-- - an API token without expiry: its issue date + 365 days, the maximum a token may now live (its owner asked for
--   none, so it keeps the longest the rule allows; one older than that is expired by this change, docs/auth.md);
--   one set beyond issue + 365 days is brought back to it;
-- - an approval's asset_state: none (not checked); a product's tri-state flags: both; its compounding: m (monthly),
--   which is how pricing and the criteria engine read null, so no answer changes.
UPDATE "api_tokens" SET "expires_at" = "created_at" + interval '365 days'
  WHERE "expires_at" IS NULL OR "expires_at" > "created_at" + interval '365 days';
UPDATE "approvals" SET "asset_state" = 'none' WHERE "asset_state" IS NULL;
UPDATE "products" SET
  "compounding_frequency" = coalesce("compounding_frequency", 'm'),
  "doc_fee_financed" = coalesce("doc_fee_financed", 'both'),
  "private_sale" = coalesce("private_sale", 'both'),
  "sale_hire_back" = coalesce("sale_hire_back", 'both'),
  "home_owner" = coalesce("home_owner", 'both')
  WHERE "compounding_frequency" IS NULL OR "doc_fee_financed" IS NULL OR "private_sale" IS NULL
     OR "sale_hire_back" IS NULL OR "home_owner" IS NULL;
-- The catalogue-version triggers run at commit (deferred); PostgreSQL refuses ALTER TABLE on a table with trigger
-- events pending, so they run now.
SET CONSTRAINTS ALL IMMEDIATE;

-- AlterTable
ALTER TABLE "api_tokens" ALTER COLUMN "expires_at" SET NOT NULL;

-- AlterTable
ALTER TABLE "approvals" ALTER COLUMN "asset_state" SET NOT NULL,
ALTER COLUMN "asset_state" SET DEFAULT 'none';

-- AlterTable
ALTER TABLE "products" ALTER COLUMN "compounding_frequency" SET NOT NULL,
ALTER COLUMN "compounding_frequency" SET DEFAULT 'm',
ALTER COLUMN "doc_fee_financed" SET NOT NULL,
ALTER COLUMN "doc_fee_financed" SET DEFAULT 'both',
ALTER COLUMN "private_sale" SET NOT NULL,
ALTER COLUMN "private_sale" SET DEFAULT 'both',
ALTER COLUMN "sale_hire_back" SET NOT NULL,
ALTER COLUMN "sale_hire_back" SET DEFAULT 'both',
ALTER COLUMN "home_owner" SET NOT NULL,
ALTER COLUMN "home_owner" SET DEFAULT 'both';
