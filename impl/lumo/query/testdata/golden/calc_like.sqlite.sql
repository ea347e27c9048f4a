WITH r AS MATERIALIZED (SELECT COUNT(t0."c_id") AS m0 FROM "t_pedidos" t0 WHERE ((CASE WHEN (t0."c_prioridade" = ?1) THEN t0."c_prioridade_f" ELSE t0."c_situacao_f" END) LIKE ?2 ESCAPE '\') AND ((CASE WHEN (t0."c_preco" >= ?3) THEN ?4 ELSE ?5 END) IS NULL OR (CASE WHEN (t0."c_preco" >= ?3) THEN ?4 ELSE ?5 END) NOT LIKE ?6 ESCAPE '\') HAVING COUNT(*) > 0),
  f AS MATERIALIZED (SELECT r.*, COALESCE(m0, 0) AS o0 FROM r)
SELECT o0, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY 1 LIMIT ?7
-- args: [Urgente %urg% 100 cara barata car% 10]
