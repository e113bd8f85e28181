-- Plans are data (decisions 30 and 46). Limits from the contract's "Rate limits by plan" table;
-- enterprise rate/burst are defaults that `accounts create --rate --burst` overrides per account.
INSERT INTO "plans" ("id", "display_name", "paid", "daily_key_quota", "daily_account_quota", "rate_per_second", "burst", "monthly_allowance") VALUES
  ('sandbox', 'Sandbox', false, 100, 500, NULL, NULL, NULL),
  ('launch', 'Launch', true, NULL, NULL, 10, 20, 50000),
  ('scale', 'Scale', true, NULL, NULL, 50, 100, 500000),
  ('enterprise', 'Enterprise', true, NULL, NULL, 1000, 2000, NULL)
ON CONFLICT ("id") DO NOTHING;
