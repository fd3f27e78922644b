-- A runtime plugin's settings move into the settings store (issue 33): each value an admin set, kept until now in the
-- plugin row's settings JSON, becomes a flotilla_setting row `runtime:<key>` (the store's key for a setting that exists
-- while its plugin runs; no module's key holds a colon), with who changed the plugin last. The column is then unused.
INSERT INTO "flotilla_setting" ("key", "value", "scope", "updated_at", "updated_by")
SELECT 'runtime:' || setting.key, setting.value, 'RUNTIME', plugin.updated_at, plugin.updated_by
FROM "plugin" AS plugin, jsonb_each(plugin.settings) AS setting
ON CONFLICT ("key") DO NOTHING;

ALTER TABLE "plugin" DROP COLUMN "settings";
