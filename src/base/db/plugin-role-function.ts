// The one narrow power Flotilla's database role needs beyond owning its database: making and dropping the login role
// and schema of a runtime plugin (plugins module, ADR 29). CREATEROLE would give far more (before PostgreSQL 16 a
// role that may create roles may grant itself nearly anything), so a superuser installs this SECURITY DEFINER
// function instead and lets only Flotilla's role call it: it makes roles named flotilla_plugin_<id>_<database> with
// no powers and schemas plugin_<id> owned by them, and nothing else. The embedded PostgreSQL installs it at every
// start; docs/security.md gives the statement for your own PostgreSQL.
import pg from 'pg';

export const PLUGIN_ROLE_FUNCTION = 'flotilla_plugin_role';

/**
 * The plugin role's name as SQL, for the plugin id in `plugin`. Roles belong to the PostgreSQL server, not to one
 * database, so the name carries the database (8 hex digits of its name's MD5): two installations on one server running
 * the same plugin get a role each, and neither's purge touches the other's. At most 16 + 32 + 1 + 8 = 57 characters
 * (PostgreSQL's limit is 63).
 */
export const pluginRoleNameSql = (plugin: string) =>
  `'flotilla_plugin_' || replace(${plugin}, '-', '_') || '_' || left(md5(current_database()), 8)`;

export function pluginRoleFunctionSql(appRole: string): string {
  return `
-- An earlier version answered nothing (void); a function's answer type cannot be replaced, only dropped.
DROP FUNCTION IF EXISTS public.${PLUGIN_ROLE_FUNCTION}(text, text, text);
CREATE FUNCTION public.${PLUGIN_ROLE_FUNCTION}(action text, plugin text, secret text DEFAULT NULL)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $fn$
DECLARE
  role_name text := ${pluginRoleNameSql('plugin')};
  schema_name text := 'plugin_' || replace(plugin, '-', '_');
  owner_name text;
BEGIN
  IF plugin IS NULL OR plugin !~ '^[a-z][a-z0-9-]{2,31}$' THEN
    RAISE EXCEPTION 'not a plugin id: %', plugin;
  END IF;
  IF action = 'ensure' THEN
    IF secret IS NULL OR length(secret) < 16 THEN RAISE EXCEPTION 'a plugin role needs a password'; END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name) THEN
      EXECUTE format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS PASSWORD %L', role_name, secret);
    ELSE
      EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT 8 PASSWORD %L', role_name, secret);
    END IF;
    EXECUTE format('ALTER ROLE %I SET search_path = %I', role_name, schema_name);
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', role_name, '5s');
    -- A schema made by an earlier version belongs to a role named by the plugin alone: its objects in this
    -- database pass to this database's role (that role itself may serve another database, so it stays).
    SELECT pg_get_userbyid(nspowner) INTO owner_name FROM pg_namespace WHERE nspname = schema_name;
    IF owner_name = 'flotilla_plugin_' || replace(plugin, '-', '_') THEN
      EXECUTE format('REASSIGN OWNED BY %I TO %I', owner_name, role_name);
    END IF;
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', schema_name, role_name);
  ELSIF action = 'drop' THEN
    EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', schema_name);
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role_name) THEN
      PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = role_name;
      EXECUTE format('DROP OWNED BY %I', role_name);
      EXECUTE format('DROP ROLE %I', role_name);
    END IF;
  ELSE
    RAISE EXCEPTION 'unknown action: %', action;
  END IF;
  RETURN role_name;
END
$fn$;
ALTER FUNCTION public.${PLUGIN_ROLE_FUNCTION}(text, text, text) OWNER TO CURRENT_USER;
REVOKE ALL ON FUNCTION public.${PLUGIN_ROLE_FUNCTION}(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.${PLUGIN_ROLE_FUNCTION}(text, text, text) TO ${pg.escapeIdentifier(appRole)};
`;
}
