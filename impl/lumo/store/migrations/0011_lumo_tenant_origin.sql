-- Where each tenant was imported from: the absolute path of its workspace.yaml (NULL for imports
-- that did not say). An import of the same tenant key from another workspace is refused unless
-- it asks to replace it (lumo import --replace): two folders initialised alike must not silently
-- replace each other.
ALTER TABLE lumo_tenants ADD COLUMN workspace_path TEXT;
