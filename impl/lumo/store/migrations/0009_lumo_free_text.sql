-- free_text marks a text column the import judged free text (long values, nearly all distinct:
-- comments, descriptions). Its (folded, value) btree index is not built, at import nor at open:
-- it cost as much as loading the table, and nothing lists or picks such values.

ALTER TABLE lumo_columns ADD COLUMN free_text INTEGER NOT NULL DEFAULT 0;
