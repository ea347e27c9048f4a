WITH r AS MATERIALIZED (SELECT COUNT(t0."c_id") AS m0 FROM "t_pedidos" t0 WHERE ((CASE WHEN (NULLIF(t0."c_prioridade", '') = CAST($1 AS TEXT)) THEN t0."c_prioridade_f" ELSE t0."c_situacao_f" END) <> '' AND (CASE WHEN (NULLIF(t0."c_prioridade", '') = CAST($1 AS TEXT)) THEN t0."c_prioridade_f" ELSE t0."c_situacao_f" END) LIKE $2) AND ((CASE WHEN (t0."c_preco" >= CAST($6 AS DECIMAL(3, 0))) THEN CAST($7 AS TEXT) ELSE CAST($8 AS TEXT) END) IS NULL OR (CASE WHEN (t0."c_preco" >= CAST($6 AS DECIMAL(3, 0))) THEN CAST($7 AS TEXT) ELSE CAST($8 AS TEXT) END) = '' OR (CASE WHEN (t0."c_preco" >= CAST($3 AS DECIMAL(3, 0))) THEN CAST($4 AS TEXT) ELSE CAST($5 AS TEXT) END) NOT LIKE $9) HAVING COUNT(*) > 0),
  f AS MATERIALIZED (SELECT r.*, COALESCE(m0, 0) AS o0 FROM r)
SELECT o0, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT COALESCE(SUM(m0),
  0) FROM f) AS s0 FROM f ORDER BY 1 LIMIT $10
-- args: [Urgente %urg% 100 cara barata 100 Cara Barata car% 10]
