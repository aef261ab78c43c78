-- Zones stored before names were made canonical keep ICU's legacy spelling (Asia/Calcutta for Asia/Kolkata, on
-- Node 20): rewrite them to the current IANA names, the same table src/modules/notifications/timezone.ts applies on
-- every write (a test keeps the two lists equal). Same zone, same clock: quiet hours are unchanged.
WITH "legacy" ("old", "new") AS (VALUES
  ('Africa/Asmera', 'Africa/Asmara'),
  ('America/Buenos_Aires', 'America/Argentina/Buenos_Aires'),
  ('America/Catamarca', 'America/Argentina/Catamarca'),
  ('America/Cordoba', 'America/Argentina/Cordoba'),
  ('America/Jujuy', 'America/Argentina/Jujuy'),
  ('America/Mendoza', 'America/Argentina/Mendoza'),
  ('America/Coral_Harbour', 'America/Atikokan'),
  ('America/Godthab', 'America/Nuuk'),
  ('America/Indianapolis', 'America/Indiana/Indianapolis'),
  ('America/Louisville', 'America/Kentucky/Louisville'),
  ('Asia/Calcutta', 'Asia/Kolkata'),
  ('Asia/Katmandu', 'Asia/Kathmandu'),
  ('Asia/Rangoon', 'Asia/Yangon'),
  ('Asia/Saigon', 'Asia/Ho_Chi_Minh'),
  ('Atlantic/Faeroe', 'Atlantic/Faroe'),
  ('Europe/Kiev', 'Europe/Kyiv'),
  ('Pacific/Enderbury', 'Pacific/Kanton'),
  ('Pacific/Ponape', 'Pacific/Pohnpei'),
  ('Pacific/Truk', 'Pacific/Chuuk')
), "preferences" AS (
  UPDATE "notification_preferences" AS p SET "timezone" = l."new" FROM "legacy" AS l WHERE p."timezone" = l."old"
)
UPDATE "devices" AS d SET "timezone" = l."new" FROM "legacy" AS l WHERE d."timezone" = l."old";
