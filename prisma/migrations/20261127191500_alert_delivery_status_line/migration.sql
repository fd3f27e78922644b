-- A delivery's answer keeps only the remote status line from now on (issue 25): answers logged before kept the first
-- 200 characters of whatever the endpoint said, which a loopback or internal service could fill with its secrets.
-- Those are cut to their status code, and nodemailer's "response=<answer>" quotes are dropped.
UPDATE "alert_delivery" SET "response" = substring("response" from '^[1-5][0-9][0-9]')
 WHERE "response" ~ '^[1-5][0-9][0-9][^0-9]';
UPDATE "alert_delivery" SET "response" = regexp_replace("response", '\.?\s*response=.*$', '', 's')
 WHERE "response" LIKE '%response=%';
