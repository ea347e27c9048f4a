WITH r AS MATERIALIZED (SELECT COUNT(t0."c_id") AS m0 FROM "t_pedidos" t0 WHERE (contains((CASE WHEN (t0."c_prioridade" = CAST($1 AS TEXT)) THEN t0."c_prioridade_f" ELSE t0."c_situacao_f" END),
  $2)) AND ((CASE WHEN (t0."c_preco" >= CAST($3 AS DECIMAL(3, 0))) THEN CAST($4 AS TEXT) ELSE CAST($5 AS TEXT) END) IS NULL OR NOT prefix((CASE WHEN (t0."c_preco" >= CAST($3 AS DECIMAL(3, 0))) THEN CAST($4 AS TEXT) ELSE CAST($5 AS TEXT) END),
  $6)) HAVING COUNT(*) > 0),
  f AS MATERIALIZED (SELECT r.*, COALESCE(m0, 0) AS o0 FROM r)
SELECT o0, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY 1 LIMIT $7
-- args: [Urgente urg 100 cara barata car 10]
