-- The owner's name beside a shared query, kept by the sql module itself (it does not read the users table).
ALTER TABLE sql_saved_query ADD COLUMN owner_name text NOT NULL DEFAULT '';
