-- caderninho planning in SQL: the planning reads select, page and total the effective view in
-- the database instead of loading a whole space.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

-- search_fold is the edit's description and note folded (see fold.Fold) for text filters; a
-- text filter matches a word in the transaction's own search_fold or in its edit's. Edits
-- written before this column are folded when the store opens (see Open).
ALTER TABLE cad_edits ADD COLUMN search_fold TEXT NOT NULL DEFAULT '';

-- Manual records are paged across spaces by day, then id, like transactions.
CREATE INDEX cad_records_day ON cad_records (record_day, id);

-- plan_totals sums the transactions as the bank gave them from this index alone (the edited ones
-- are corrected apart), account by account and currency by currency in its order.
CREATE INDEX cad_transactions_totals ON cad_transactions (account_id, currency, posted_day, amount_minor);
